package io.changegrid.appliers.it;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * How a column is read for comparing a source and a target row: an SQL expression per dialect that
 * yields comparable text, and a Java normalisation of that text.
 */
enum Canon {
    TEXT,
    FLOAT,
    DOUBLE,
    TIME,
    DATETIME,
    TIMESTAMP,
    HEX,
    BITS;

    String select(String column, boolean postgres, int width) {
        String c = postgres ? '"' + column + '"' : '`' + column + '`';
        return switch (this) {
            case TEXT -> postgres ? "CAST(" + c + " AS text)" : "CAST(" + c + " AS CHAR)";
            // MariaDB's text protocol rounds FLOAT to 6 digits; as DOUBLE it shows the stored bits.
            case FLOAT -> postgres ? c : "(" + c + " + 0E0)";
            case DOUBLE -> c;
            case TIME ->
                    postgres
                            ? "CAST(extract(epoch from " + c + ") * 1000000 AS bigint)"
                            : "CAST(" + c + " AS CHAR)";
            case DATETIME ->
                    postgres
                            ? "to_char(" + c + ", 'YYYY-MM-DD HH24:MI:SS.US')"
                            : "CAST(" + c + " AS CHAR)";
            case TIMESTAMP ->
                    postgres
                            ? "CAST(extract(epoch from " + c + ") AS text)"
                            : "CAST(UNIX_TIMESTAMP(" + c + ") AS CHAR)";
            case HEX -> postgres ? "upper(encode(" + c + ", 'hex'))" : "HEX(" + c + ")";
            case BITS ->
                    postgres
                            ? "CAST(" + c + " AS text)"
                            : "LPAD(BIN(" + c + "), " + width + ", '0')";
        };
    }

    String read(ResultSet rows, int index, boolean postgres) throws SQLException {
        switch (this) {
            case FLOAT -> {
                float value = (float) rows.getDouble(index);
                return rows.wasNull() ? "NULL" : Float.toString(value);
            }
            case DOUBLE -> {
                double value = rows.getDouble(index);
                return rows.wasNull() ? "NULL" : Double.toString(value);
            }
            default -> {}
        }
        String text = rows.getString(index);
        if (text == null) {
            return "NULL";
        }
        return switch (this) {
            case TIME -> postgres ? text : Long.toString(micros(text));
            case DATETIME -> padFraction(text);
            case TIMESTAMP -> new BigDecimal(text).stripTrailingZeros().toPlainString();
            default -> text;
        };
    }

    private static String padFraction(String text) {
        int dot = text.indexOf('.');
        if (dot < 0) {
            return text + ".000000";
        }
        StringBuilder padded = new StringBuilder(text);
        while (padded.length() - dot - 1 < 6) {
            padded.append('0');
        }
        return padded.toString();
    }

    /** {@code [-]H:MM:SS[.ffffff]} as signed microseconds. */
    private static long micros(String text) {
        boolean negative = text.startsWith("-");
        String[] parts = (negative ? text.substring(1) : text).split(":");
        String[] seconds = parts[2].split("\\.");
        long micros =
                (Long.parseLong(parts[0]) * 3600
                                + Long.parseLong(parts[1]) * 60
                                + Long.parseLong(seconds[0]))
                        * 1_000_000L;
        if (seconds.length > 1) {
            String fraction = (seconds[1] + "000000").substring(0, 6);
            micros += Long.parseLong(fraction);
        }
        return negative ? -micros : micros;
    }
}
