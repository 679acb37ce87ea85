package io.changegrid.appliers.it;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.ValueType;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix.Check;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix.TypeCase;
import io.changegrid.fetchers.mysql.schema.MySqlColumnTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The matrix table's rows as comparable text, one line a row ({@code id=… | c_x=… | …}, by key).
 * Against a MariaDB target both sides are read with the source's own canonical expressions ({@link
 * Check#sourceExpression}) and compared as they come: exact. Against PostgreSQL, where the applier
 * converts, each side is brought to one canonical text per check, as docs/appliers.md says the
 * value is converted: numbers by value, FLOAT widened to double, BIT(n) as its unsigned number,
 * TIME as signed microseconds of an {@code interval}, TIMESTAMP as epoch seconds, text as its bytes
 * in the source column's character set, binaries and geometry as hex.
 */
final class MatrixCanon {

    private static final Pattern CHARACTER_SET =
            Pattern.compile("CHARACTER SET (\\w+)", Pattern.CASE_INSENSITIVE);

    private MatrixCanon() {}

    /** The rows of a MariaDB table (source or target) as the source's canonical text. */
    static List<String> mariaDb(Connection connection, String table, boolean converted)
            throws SQLException {
        return rows(connection, MariaDbTypeMatrix.selectCanonical(table), converted, false);
    }

    /** The rows of the PostgreSQL table {@code "db"."table"} in the canonical text. */
    static List<String> postgres(Connection connection, String table) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT id");
        for (TypeCase c : MariaDbTypeMatrix.CASES) {
            sql.append(", ").append(postgresExpression(c.check(), '"' + c.name() + '"'));
        }
        return rows(
                connection,
                sql.append(" FROM ").append(table).append(" ORDER BY id").toString(),
                true,
                true);
    }

    private static List<String> rows(
            Connection connection, String sql, boolean converted, boolean postgres)
            throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                StringJoiner row = new StringJoiner(" | ", "id=" + result.getLong(1) + " | ", "");
                for (int i = 0; i < MariaDbTypeMatrix.CASES.size(); i++) {
                    TypeCase c = MariaDbTypeMatrix.CASES.get(i);
                    String text = result.getString(i + 2);
                    String value =
                            text == null ? "NULL" : converted ? canonical(c, text, postgres) : text;
                    row.add(c.name() + "=" + value);
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    /** What PostgreSQL is asked for, per check, so that {@link #canonical} can read it. */
    private static String postgresExpression(Check check, String c) {
        return switch (check) {
            case NUMBER, DOUBLE, YEAR, BITS, DATE -> "CAST(" + c + " AS text)";
            case FLOAT -> "CAST(CAST(" + c + " AS double precision) AS text)";
            case TIME -> "CAST(CAST(extract(epoch from " + c + ") * 1000000 AS bigint) AS text)";
            case DATETIME -> "to_char(" + c + ", 'YYYY-MM-DD HH24:MI:SS.US')";
            case TIMESTAMP -> "CAST(extract(epoch from " + c + ") AS text)";
            case CHARS, TEXT -> c;
            case BYTES, GEOMETRY -> "encode(" + c + ", 'hex')";
        };
    }

    /** One canonical text of a value for both sides: the source's text, or PostgreSQL's. */
    private static String canonical(TypeCase c, String text, boolean postgres) {
        return switch (c.check()) {
            case NUMBER, TIMESTAMP -> new BigDecimal(text).stripTrailingZeros().toPlainString();
            // The sign of a zero is not compared: MariaDB prints -0 as 0.
            case FLOAT, DOUBLE -> Double.toString(Double.parseDouble(text) + 0.0);
            case YEAR -> Long.toString(Long.parseLong(text));
            case BITS -> postgres ? new BigInteger(text, 2).toString() : text;
            case DATE, DATETIME, TEXT -> text;
            case TIME -> postgres ? text : Long.toString(micros(text));
            case CHARS ->
                    postgres
                            ? HexFormat.of().withUpperCase().formatHex(text.getBytes(charset(c)))
                            : text.toUpperCase(Locale.ROOT);
            case BYTES, GEOMETRY -> text.toUpperCase(Locale.ROOT);
        };
    }

    /** The Java charset the fetcher decodes the case's column with (the table's is utf8mb4). */
    static Charset charset(TypeCase c) {
        Matcher declared = CHARACTER_SET.matcher(c.declaration());
        String name = declared.find() ? declared.group(1) : "utf8mb4";
        return MySqlColumnTypes.charset(
                new Column(c.name(), ValueType.STRING, "text character set " + name, true, 0));
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
            micros += Long.parseLong((seconds[1] + "000000").substring(0, 6));
        }
        return negative ? -micros : micros;
    }
}
