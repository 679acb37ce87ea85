package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import io.changegrid.events.value.ValueType;

/**
 * How the values of a table version's binlog row images are stored under one table map, and how
 * {@link RowTranscoder} reads each: the binlog type after resolving STRING's real type from its
 * metadata (as the library does), the metadata, a fixed size or a length prefix, and the {@link
 * Write} that turns the stored bytes into the column's value type, or the library's cell reader for
 * the types not read in place. Planned once per schema version and table map; immutable.
 */
final class RowLayout {

    /** How a column's value is written. */
    enum Write {
        SIGNED,
        UNSIGNED,
        UINT64,
        FLOAT32,
        FLOAT64,
        DECIMAL,
        DATE,
        DATETIME2,
        TIMESTAMP2,
        BYTES,
        PADDED_BYTES,
        /** Decoded by the library and converted: the types not read in place. */
        CELL
    }

    // Per column; shared with the transcoder, which must not modify them.
    final Write[] writes;
    final ColumnType[] types;
    final int[] metas;

    /** The length STRING's metadata gives (CHAR's bytes, ENUM's and SET's storage), else 0. */
    final int[] lengths;

    /** The size of a fixed-size value, or -1. */
    final int[] fixedSizes;

    /** The bytes of a variable value's little-endian length prefix. */
    final int[] prefixes;

    private RowLayout(RowConverter converter, TableMapEventData map) {
        int count = converter.schema().columnCount();
        writes = new Write[count];
        types = new ColumnType[count];
        metas = new int[count];
        lengths = new int[count];
        fixedSizes = new int[count];
        prefixes = new int[count];
        byte[] codes = map.getColumnTypes();
        int[] metadata = map.getColumnMetadata();
        for (int i = 0; i < count; i++) {
            plan(converter, i, codes[i] & 0xFF, metadata[i]);
        }
    }

    /**
     * The layout of a table version's rows under this table map, or null when the map does not
     * match the schema's columns or has a column whose values' size is not known here.
     */
    static RowLayout of(RowConverter converter, TableMapEventData map) {
        byte[] codes = map.getColumnTypes();
        int[] metadata = map.getColumnMetadata();
        if (codes.length != converter.schema().columnCount()
                || metadata == null
                || metadata.length != codes.length) {
            return null;
        }
        for (int i = 0; i < codes.length; i++) {
            if (sizingOf(codes[i] & 0xFF, metadata[i]) == null) {
                return null;
            }
        }
        return new RowLayout(converter, map);
    }

    private void plan(RowConverter converter, int i, int code, int meta) {
        ColumnType type = resolve(code, meta);
        types[i] = type;
        metas[i] = meta;
        lengths[i] = stringLength(code, meta);
        int[] sizing = sizingOf(code, meta);
        fixedSizes[i] = sizing[0];
        prefixes[i] = sizing[1];
        writes[i] = write(converter, i, type, meta);
    }

    private static Write write(RowConverter converter, int i, ColumnType type, int meta) {
        ValueType valueType = converter.schema().column(i).type();
        Write write =
                switch (converter.kind(i)) {
                    case SIGNED ->
                            switch (type) {
                                case TINY, SHORT, INT24, LONG, LONGLONG -> Write.SIGNED;
                                default -> Write.CELL;
                            };
                    case UNSIGNED_8 -> type == ColumnType.TINY ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_16 -> type == ColumnType.SHORT ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_24 -> type == ColumnType.INT24 ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_32 -> type == ColumnType.LONG ? Write.UNSIGNED : Write.CELL;
                    case UNSIGNED_64 -> type == ColumnType.LONGLONG ? Write.UINT64 : Write.CELL;
                    case AS_IS ->
                            switch (type) {
                                case FLOAT -> Write.FLOAT32;
                                case DOUBLE -> Write.FLOAT64;
                                case NEWDECIMAL -> (meta & 0xFF) <= 18 ? Write.DECIMAL : Write.CELL;
                                case DATE -> Write.DATE;
                                case DATETIME_V2 -> Write.DATETIME2;
                                case TIMESTAMP_V2 -> Write.TIMESTAMP2;
                                default -> Write.CELL;
                            };
                    case UTF8_TEXT, BYTES ->
                            switch (type) {
                                case VARCHAR, VAR_STRING, STRING, BLOB -> Write.BYTES;
                                default -> Write.CELL;
                            };
                    case BINARY_FIXED ->
                            type == ColumnType.STRING ? Write.PADDED_BYTES : Write.CELL;
                    default -> Write.CELL;
                };
        if (converter.compressed(i) || !fits(write, valueType)) {
            return Write.CELL;
        }
        return write;
    }

    /** Whether the column's value type is the one {@code write} produces; else the cell path. */
    private static boolean fits(Write write, ValueType type) {
        return switch (write) {
            case SIGNED, UNSIGNED -> type == ValueType.INT64;
            case UINT64 -> type == ValueType.UINT64;
            case FLOAT32 -> type == ValueType.FLOAT32;
            case FLOAT64 -> type == ValueType.FLOAT64;
            case DECIMAL -> type == ValueType.DECIMAL;
            case DATE -> type == ValueType.DATE;
            case DATETIME2 -> type == ValueType.DATETIME;
            case TIMESTAMP2 -> type == ValueType.TIMESTAMP;
            case BYTES -> type == ValueType.STRING || type == ValueType.BYTES;
            case PADDED_BYTES -> type == ValueType.BYTES;
            case CELL -> true;
        };
    }

    /** STRING's real type from its metadata (mysql's log_event_print_value), else the code's. */
    private static ColumnType resolve(int code, int meta) {
        if (code == ColumnType.STRING.getCode() && meta >= 256) {
            int meta0 = meta >> 8;
            if ((meta0 & 0x30) != 0x30) {
                code = meta0 | 0x30;
            } else if (meta0 == ColumnType.ENUM.getCode() || meta0 == ColumnType.SET.getCode()) {
                code = meta0;
            }
        }
        return ColumnType.byCode(code);
    }

    /** The length STRING's metadata gives (CHAR's bytes, ENUM's and SET's storage), else 0. */
    private static int stringLength(int code, int meta) {
        if (code != ColumnType.STRING.getCode()) {
            return 0;
        }
        if (meta < 256) {
            return meta;
        }
        int meta0 = meta >> 8;
        int meta1 = meta & 0xFF;
        return (meta0 & 0x30) != 0x30 ? meta1 | (((meta0 & 0x30) ^ 0x30) << 4) : meta1;
    }

    /**
     * {fixed size or -1, length prefix bytes} of a value of {@code type}, or null for a type whose
     * size is not known here. The sizes are the library's readers'.
     */
    private static int[] sizing(ColumnType type, int meta) {
        if (type == null) {
            return null;
        }
        return switch (type) {
            case TINY, YEAR -> new int[] {1, 0};
            case SHORT -> new int[] {2, 0};
            case INT24, DATE, TIME -> new int[] {3, 0};
            case LONG, FLOAT, TIMESTAMP -> new int[] {4, 0};
            case LONGLONG, DOUBLE, DATETIME -> new int[] {8, 0};
            case TIME_V2 -> new int[] {3 + (meta + 1) / 2, 0};
            case DATETIME_V2 -> new int[] {5 + (meta + 1) / 2, 0};
            case TIMESTAMP_V2 -> new int[] {4 + (meta + 1) / 2, 0};
            case NEWDECIMAL -> new int[] {StoredBytes.decimalSize(meta & 0xFF, meta >> 8), 0};
            case BIT -> new int[] {((meta >> 8) * 8 + (meta & 0xFF) + 7) / 8, 0};
            case VARCHAR, VAR_STRING -> new int[] {-1, meta < 256 ? 1 : 2};
            case BLOB, GEOMETRY, JSON, VECTOR ->
                    meta >= 1 && meta <= 4 ? new int[] {-1, meta} : null;
            default -> null;
        };
    }

    /** The sizing of a column whose STRING metadata says its real type (CHAR, ENUM, SET). */
    private static int[] sizingOf(int code, int meta) {
        ColumnType type = resolve(code, meta);
        if (code == ColumnType.STRING.getCode()) {
            int length = stringLength(code, meta);
            if (type == ColumnType.ENUM || type == ColumnType.SET) {
                return new int[] {length, 0};
            }
            return new int[] {-1, length < 256 ? 1 : 2};
        }
        return sizing(type, meta);
    }
}
