package io.changegrid.fetchers.postgresql;

import io.changegrid.events.value.ValueType;

/**
 * How a PostgreSQL column's text form (what pgoutput sends) becomes an event value, and as which
 * value type. Types outside this list are refused at start, naming table, column and type.
 */
enum PgValueKind {
    BOOLEAN(ValueType.BOOLEAN),
    INTEGER(ValueType.INT64),
    NUMERIC(ValueType.DECIMAL),
    FLOAT4(ValueType.FLOAT32),
    FLOAT8(ValueType.FLOAT64),
    /**
     * Carried as the server's exact text: character types, uuid, enums, arrays, network types, ...
     */
    TEXT(ValueType.STRING),
    BYTEA(ValueType.BYTES),
    DATE(ValueType.DATE),
    TIME(ValueType.TIME),
    TIMESTAMP(ValueType.DATETIME),
    TIMESTAMPTZ(ValueType.TIMESTAMP),
    JSON(ValueType.JSON),
    BIT(ValueType.BITS);

    private final ValueType type;

    PgValueKind(ValueType type) {
        this.type = type;
    }

    ValueType type() {
        return type;
    }

    /**
     * The kind of a base type (domains already resolved to theirs), or null when it is not carried.
     *
     * @param name the type's name in pg_catalog ({@code int4}, {@code timestamptz}, ...)
     * @param typtype {@code b} base, {@code e} enum, ...
     * @param category pg_type.typcategory; {@code A} for arrays
     * @param elementKind the kind of an array's element type, or null
     */
    static PgValueKind of(String name, char typtype, char category, PgValueKind elementKind) {
        if (typtype == 'e') {
            return TEXT; // an enum: its label
        }
        if (category == 'A') {
            return elementKind == null ? null : TEXT; // the server's array literal, exactly
        }
        return switch (name) {
            case "bool" -> BOOLEAN;
            case "int2", "int4", "int8" -> INTEGER;
            case "numeric" -> NUMERIC;
            case "float4" -> FLOAT4;
            case "float8" -> FLOAT8;
            case "text",
                    "varchar",
                    "bpchar",
                    "uuid",
                    "interval",
                    "timetz",
                    "inet",
                    "cidr",
                    "macaddr",
                    "macaddr8",
                    "varbit",
                    "money" ->
                    TEXT;
            case "bytea" -> BYTEA;
            case "date" -> DATE;
            case "time" -> TIME;
            case "timestamp" -> TIMESTAMP;
            case "timestamptz" -> TIMESTAMPTZ;
            case "json", "jsonb" -> JSON;
            case "bit" -> BIT;
            default -> null;
        };
    }
}
