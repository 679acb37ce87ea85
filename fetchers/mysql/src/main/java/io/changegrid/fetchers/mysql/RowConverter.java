package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.Geometry;
import io.changegrid.fetchers.mysql.schema.MySqlColumnTypes;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * Turns the cells of one binlog row into the values of a frame row image, for one version of one
 * table's schema. Built once per schema version; converting a row allocates only the result array
 * and what the values themselves need (decoded strings, padded binaries). Cells of MariaDB's
 * COMPRESSED columns are inflated first ({@link CompressedCells}); UUID, INET4 and INET6 become the
 * server's text ({@link FixedBinaryText}). A cell that cannot be read is refused naming table,
 * column and value; the caller adds where the row is ({@link RowRefusal}).
 *
 * <p>Not thread-safe state-wise, but immutable after construction: safe on the fetcher thread.
 */
final class RowConverter {

    private final TableSchema schema;
    private final CellKind[] kinds;
    private final Charset[] charsets;
    private final int[] widths;
    private final List<?>[] labels;

    /** MariaDB COMPRESSED columns, whose cells are inflated before anything else. */
    private final boolean[] compressed;

    RowConverter(TableSchema schema) {
        this.schema = schema;
        int count = schema.columnCount();
        kinds = new CellKind[count];
        charsets = new Charset[count];
        widths = new int[count];
        labels = new List<?>[count];
        compressed = new boolean[count];
        for (int i = 0; i < count; i++) {
            plan(i, schema.column(i));
        }
    }

    TableSchema schema() {
        return schema;
    }

    private void plan(int i, Column column) {
        String type = column.sourceType().toLowerCase(Locale.ROOT);
        String base = baseName(type);
        boolean unsigned = type.contains(" unsigned");
        compressed[i] = MySqlColumnTypes.isCompressed(column);
        kinds[i] =
                switch (column.type()) {
                    case INT64 ->
                            !unsigned
                                    ? CellKind.SIGNED
                                    : switch (base) {
                                        case "tinyint" -> CellKind.UNSIGNED_8;
                                        case "smallint" -> CellKind.UNSIGNED_16;
                                        case "mediumint" -> CellKind.UNSIGNED_24;
                                        case "int", "integer" -> CellKind.UNSIGNED_32;
                                        default -> throw unsupported(column);
                                    };
                    case UINT64 -> CellKind.UNSIGNED_64;
                    case FLOAT32, FLOAT64, DECIMAL, BITS, DATE, TIME, DATETIME, TIMESTAMP ->
                            CellKind.AS_IS;
                    case STRING -> textKind(i, column, base);
                    case BYTES -> {
                        if (base.equals("binary")) {
                            widths[i] = parenthesized(type, column);
                            yield CellKind.BINARY_FIXED;
                        }
                        yield CellKind.BYTES;
                    }
                    case JSON -> CellKind.JSON_BINARY;
                    case GEOMETRY -> CellKind.GEOMETRY;
                    case BOOLEAN, TIMESTAMP_TZ -> throw unsupported(column);
                };
    }

    private CellKind textKind(int i, Column column, String base) {
        if (base.equals("enum")) {
            labels[i] = MySqlColumnTypes.enumLabels(column);
            return CellKind.ENUM;
        }
        if (base.equals("set")) {
            labels[i] = MySqlColumnTypes.setLabels(column);
            return CellKind.SET;
        }
        switch (base) {
            case "uuid" -> {
                return CellKind.UUID;
            }
            case "inet4" -> {
                return CellKind.INET4;
            }
            case "inet6" -> {
                return CellKind.INET6;
            }
            default -> {}
        }
        Charset charset = MySqlColumnTypes.charset(column);
        charsets[i] = charset;
        return charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.US_ASCII)
                ? CellKind.UTF8_TEXT
                : CellKind.CHARSET_TEXT;
    }

    /**
     * Converts one row.
     *
     * @param cells the library's cells of the columns included in the event, in column order
     * @param included which columns the event includes (all of them with binlog_row_image=FULL)
     * @return one value per schema column; columns the event left out are NULL
     * @throws IllegalArgumentException naming table, column and the cell when a cell cannot be read
     *     as its column's value
     */
    Object[] convert(Serializable[] cells, BitSet included) {
        Object[] row = new Object[kinds.length];
        int cell = 0;
        for (int i = 0; i < kinds.length; i++) {
            if (!included.get(i)) {
                continue;
            }
            Serializable value = cells[cell++];
            if (value != null) {
                row[i] = convertCell(i, value);
            }
        }
        return row;
    }

    /**
     * Converts the library's non-null cell of column {@code i}.
     *
     * @throws IllegalArgumentException naming table, column and the cell
     */
    Object convertCell(int i, Serializable value) {
        try {
            return convert(i, compressed[i] ? CompressedCells.inflate((byte[]) value) : value);
        } catch (RuntimeException e) {
            throw refused(i, value, e);
        }
    }

    /** How column {@code i}'s cells become values. */
    CellKind kind(int i) {
        return kinds[i];
    }

    /** The width of a BINARY(n) column, else 0. */
    int width(int i) {
        return widths[i];
    }

    /** Whether column {@code i} is one of MariaDB's COMPRESSED columns. */
    boolean compressed(int i) {
        return compressed[i];
    }

    private IllegalArgumentException refused(int i, Serializable value, RuntimeException e) {
        return new IllegalArgumentException(
                "table="
                        + schema.qualifiedName()
                        + ", column="
                        + schema.column(i).name()
                        + ", sourceType="
                        + schema.column(i).sourceType()
                        + ", value="
                        + CellText.of(value)
                        + ", reason="
                        + e.getMessage(),
                e);
    }

    private Object convert(int i, Serializable value) {
        return switch (kinds[i]) {
            case SIGNED -> ((Number) value).longValue();
            case UNSIGNED_8 -> ((Number) value).longValue() & 0xFFL;
            case UNSIGNED_16 -> ((Number) value).longValue() & 0xFFFFL;
            case UNSIGNED_24 -> ((Number) value).longValue() & 0xFF_FFFFL;
            case UNSIGNED_32 -> ((Number) value).longValue() & 0xFFFF_FFFFL;
            case UNSIGNED_64, AS_IS, UTF8_TEXT, BYTES -> value;
            case CHARSET_TEXT -> MySqlColumnTypes.decode(charsets[i], (byte[]) value);
            case BINARY_FIXED -> {
                byte[] bytes = (byte[]) value;
                yield bytes.length >= widths[i] ? bytes : Arrays.copyOf(bytes, widths[i]);
            }
            case ENUM -> {
                int index = ((Number) value).intValue();
                yield index == 0 ? "" : (String) labels[i].get(index - 1);
            }
            case SET -> setText(labels[i], ((Number) value).longValue());
            case JSON_BINARY -> jsonText((byte[]) value);
            case GEOMETRY -> {
                byte[] bytes = (byte[]) value;
                int srid = ByteBuffer.wrap(bytes, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
                yield new Geometry(srid, Arrays.copyOfRange(bytes, 4, bytes.length));
            }
            case UUID -> FixedBinaryText.uuid((byte[]) value);
            case INET4 -> FixedBinaryText.inet4((byte[]) value);
            case INET6 -> FixedBinaryText.inet6((byte[]) value);
        };
    }

    private static String setText(List<?> members, long mask) {
        StringBuilder text = new StringBuilder();
        for (int bit = 0; bit < members.size(); bit++) {
            if ((mask & (1L << bit)) != 0) {
                if (text.length() > 0) {
                    text.append(',');
                }
                text.append((String) members.get(bit));
            }
        }
        return text.toString();
    }

    private static String jsonText(byte[] binary) {
        try {
            return binary.length == 0 ? "null" : JsonBinary.parseAsString(binary);
        } catch (IOException e) {
            throw new UncheckedIOException("MySQL binary JSON could not be read", e);
        }
    }

    private static String baseName(String type) {
        int end = 0;
        while (end < type.length() && Character.isLetterOrDigit(type.charAt(end))) {
            end++;
        }
        return type.substring(0, end);
    }

    private int parenthesized(String type, Column column) {
        int open = type.indexOf('(');
        int close = type.indexOf(')', open);
        if (open < 0 || close < 0) {
            throw unsupported(column);
        }
        return Integer.parseInt(type.substring(open + 1, close).trim());
    }

    private IllegalArgumentException unsupported(Column column) {
        return new IllegalArgumentException(
                "column type cannot be read from the binlog: table="
                        + schema.qualifiedName()
                        + ", column="
                        + column.name()
                        + ", type="
                        + column.type()
                        + ", sourceType="
                        + column.sourceType());
    }
}
