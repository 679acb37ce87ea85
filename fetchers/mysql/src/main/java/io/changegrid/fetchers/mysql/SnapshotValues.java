package io.changegrid.fetchers.mysql;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.TemporalText;
import io.changegrid.fetchers.UnsupportedSnapshotTypeException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;

/**
 * Column values read over JDBC for a snapshot, as the same Java values the binlog path publishes
 * (docs/event-format.md's table), and key values bound back into the next chunk's query. Temporal
 * values go through the server's text, read in a session whose {@code time_zone} is UTC, so a
 * {@code TIMESTAMP} is its epoch instant and zero dates stay zero.
 *
 * <p>Text in a single-byte character set other than UTF-8 arrives as the driver converts it: bytes
 * the set leaves undefined may differ from the binlog path's lossless decoding (a phase-1 limit,
 * docs/bootstrap.md). Geometry columns are refused by name.
 */
final class SnapshotValues {

    private SnapshotValues() {}

    /** Column {@code i} (0-based) of the current row, typed as {@code column} says. */
    static Object read(ResultSet rows, int i, TableSchema table, Column column)
            throws SQLException {
        int at = i + 1;
        Object value =
                switch (column.type()) {
                    case BOOLEAN -> rows.getBoolean(at);
                    case INT64 -> rows.getLong(at);
                    case UINT64 -> text(rows, at, BigInteger::new);
                    case FLOAT32 -> rows.getFloat(at);
                    case FLOAT64 -> rows.getDouble(at);
                    case DECIMAL -> rows.getBigDecimal(at);
                    case STRING, JSON -> rows.getString(at);
                    case BYTES -> rows.getBytes(at);
                    case BITS -> bits(rows.getBytes(at));
                    case DATE -> text(rows, at, SqlDate::parse);
                    case DATETIME -> text(rows, at, t -> SqlDateTime.parse(t.replace(' ', 'T')));
                    case TIME -> text(rows, at, TemporalText::parseTime);
                    case TIMESTAMP -> text(rows, at, SnapshotValues::utcInstant);
                    case TIMESTAMP_TZ, GEOMETRY ->
                            throw new UnsupportedSnapshotTypeException(table, column);
                };
        return rows.wasNull() ? null : value;
    }

    /** Binds key value {@code value} of {@code column} to parameter {@code at} (1-based). */
    static void bind(PreparedStatement statement, int at, Column column, Object value)
            throws SQLException {
        // Key values are of the few Java types the value types name; Java 17 has no type switch.
        if (value instanceof Long l) {
            statement.setLong(at, l);
        } else if (value instanceof BigInteger b) {
            statement.setBigDecimal(at, new BigDecimal(b));
        } else if (value instanceof BigDecimal d) {
            statement.setBigDecimal(at, d);
        } else if (value instanceof byte[] bytes) {
            statement.setBytes(at, bytes);
        } else if (value instanceof SqlDateTime d) {
            statement.setString(at, d.toString().replace('T', ' '));
        } else if (value instanceof Instant t) {
            statement.setString(
                    at, LocalDateTime.ofInstant(t, ZoneOffset.UTC).toString().replace('T', ' '));
        } else if (value instanceof Duration d) {
            statement.setString(at, TemporalText.formatTime(d));
        } else {
            statement.setString(at, value.toString());
        }
    }

    private interface Parse {
        Object from(String text);
    }

    private static Object text(ResultSet rows, int at, Parse parse) throws SQLException {
        String text = rows.getString(at);
        return text == null ? null : parse.from(text);
    }

    /**
     * A {@code TIMESTAMP} in a UTC session: the zero timestamp is epoch second 0, as in the binlog.
     */
    private static Instant utcInstant(String text) {
        if (text.startsWith("0000-00-00")) {
            return Instant.EPOCH;
        }
        return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    }

    /** {@code BIT(n)} arrives big-endian; a {@link BitSet} reads bytes little-endian. */
    private static BitSet bits(byte[] bigEndian) {
        if (bigEndian == null) {
            return null;
        }
        byte[] little = new byte[bigEndian.length];
        for (int i = 0; i < little.length; i++) {
            little[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return BitSet.valueOf(little);
    }
}
