package io.changegrid.appliers.it;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Every PostgreSQL type the fetcher carries (docs/sources/postgresql.md), as one table's columns,
 * with values to insert and update, and how to read a row of the source or of a target as
 * comparable text.
 *
 * <p>Against the PostgreSQL target each column is read as the driver gives its text, on both sides:
 * the applier keeps each type or a type with the same text ({@code time} as {@code interval},
 * {@code char(n)} as {@code varchar(n)} holding the padding, {@code jsonb} as {@code json} holding
 * the server's normalised text, the rest as {@code text}). Against MariaDB each column is brought
 * to one canonical text per {@link Kind}, as docs/appliers.md says the value is converted.
 */
final class PgTypeMatrix {

    /** How a column is compared with a MariaDB target. */
    enum Kind {
        TEXT,
        NUMBER,
        FLOAT,
        DOUBLE,
        BOOLEAN,
        HEX,
        TIME,
        DATETIME,
        EPOCH,
        BITS;

        String postgres(String c) {
            return switch (this) {
                case TEXT, NUMBER, FLOAT, DOUBLE, BOOLEAN -> c;
                case HEX -> "upper(encode(" + c + ", 'hex'))";
                case TIME ->
                        "CAST(CAST(extract(epoch from " + c + ") * 1000000 AS bigint) AS text)";
                case DATETIME -> "to_char(" + c + ", 'YYYY-MM-DD HH24:MI:SS.US')";
                case EPOCH -> "CAST(extract(epoch from " + c + ") AS text)";
                case BITS -> "CAST(" + c + " AS text)";
            };
        }

        String mariaDb(String c, int width) {
            return switch (this) {
                case TEXT, NUMBER, DOUBLE, BOOLEAN -> c;
                case FLOAT -> "(" + c + " + 0E0)";
                case HEX -> "HEX(" + c + ")";
                case TIME, DATETIME -> "CAST(" + c + " AS CHAR)";
                case EPOCH -> "CAST(UNIX_TIMESTAMP(" + c + ") AS CHAR)";
                case BITS -> "LPAD(BIN(" + c + "), " + width + ", '0')";
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
                case BOOLEAN -> {
                    boolean value = rows.getBoolean(index);
                    return rows.wasNull() ? "NULL" : Boolean.toString(value);
                }
                default -> {}
            }
            String text = rows.getString(index);
            if (text == null) {
                return "NULL";
            }
            return switch (this) {
                case NUMBER, EPOCH -> new BigDecimal(text).stripTrailingZeros().toPlainString();
                case TIME -> postgres ? text : Long.toString(micros(text));
                case DATETIME -> postgres ? text : padFraction(text);
                default -> text;
            };
        }
    }

    /**
     * One column.
     *
     * @param first the value of the first row, a SQL literal
     * @param second the value it is updated to
     * @param edge a value of the third row only PostgreSQL holds (NaN, infinity, BC), or null
     */
    record Case(
            String name,
            String declaration,
            Kind kind,
            int width,
            String first,
            String second,
            String edge) {}

    static final List<Case> CASES =
            List.of(
                    new Case("i2", "smallint", Kind.TEXT, 0, "-32768", "32767", null),
                    new Case("i4", "integer", Kind.TEXT, 0, "-2147483648", "2147483647", null),
                    new Case(
                            "i8",
                            "bigint",
                            Kind.TEXT,
                            0,
                            "9223372036854775807",
                            "-9223372036854775808",
                            null),
                    new Case(
                            "n",
                            "numeric(20,5)",
                            Kind.NUMBER,
                            0,
                            "123456789012345.12345",
                            "-0.00001",
                            null),
                    new Case(
                            "nu",
                            "numeric",
                            Kind.NUMBER,
                            0,
                            "1.000100",
                            "0.000000000000000000000000000001",
                            "1e40"),
                    new Case(
                            "f4",
                            "real",
                            Kind.FLOAT,
                            0,
                            "3.4028235e38",
                            "-1.17549435e-38",
                            "'Infinity'"),
                    new Case(
                            "f8",
                            "double precision",
                            Kind.DOUBLE,
                            0,
                            "-1.7976931348623157e308",
                            "4.9e-324",
                            "'NaN'"),
                    new Case("b", "boolean", Kind.BOOLEAN, 0, "true", "false", null),
                    new Case(
                            "t",
                            "text",
                            Kind.TEXT,
                            0,
                            "'ünï ☃ 😀 ''q'' \\ x'",
                            "repeat('long text ', 10000)",
                            null),
                    new Case("vc", "varchar(10)", Kind.TEXT, 0, "'abc'", "'ÿ0123456 '", null),
                    new Case("ch", "char(5)", Kind.TEXT, 0, "'ab'", "'abcde'", null),
                    new Case("by", "bytea", Kind.HEX, 0, "'\\x00ff10'", "'\\x'", null),
                    new Case(
                            "d",
                            "date",
                            Kind.TEXT,
                            0,
                            "'2024-02-29'",
                            "'0001-01-01'",
                            "'0044-03-15 BC'"),
                    new Case(
                            "tm", "time(6)", Kind.TIME, 0, "'23:59:59.999999'", "'24:00:00'", null),
                    new Case(
                            "ttz",
                            "timetz",
                            Kind.TEXT,
                            0,
                            "'10:00:00+05:30'",
                            "'00:00:00-14'",
                            null),
                    new Case(
                            "ts",
                            "timestamp(6)",
                            Kind.DATETIME,
                            0,
                            "'2024-02-29 23:59:59.123456'",
                            "'9999-12-31 23:59:59.999999'",
                            "'0044-03-15 12:00:00 BC'"),
                    new Case(
                            "tstz",
                            "timestamptz",
                            Kind.EPOCH,
                            0,
                            "'2024-02-29 23:59:59.123456+00'",
                            "'2038-01-19 03:14:07+00'",
                            "'1970-01-01 00:00:00+00'"),
                    new Case(
                            "iv",
                            "interval",
                            Kind.TEXT,
                            0,
                            "'1 year 2 mons 3 days 04:05:06.5'",
                            "'-1 days +00:00:00.000001'",
                            null),
                    new Case(
                            "u",
                            "uuid",
                            Kind.TEXT,
                            0,
                            "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'",
                            "'00000000-0000-0000-0000-000000000000'",
                            null),
                    new Case(
                            "j", "json", Kind.TEXT, 0, "'{\"a\": [1, 2], \"a\": 3}'", "'[]'", null),
                    new Case(
                            "jb",
                            "jsonb",
                            Kind.TEXT,
                            0,
                            "'{\"b\": 1, \"a\": \"☃\"}'",
                            "'null'",
                            null),
                    new Case("e", "m.mood", Kind.TEXT, 0, "'happy'", "'sad'", null),
                    new Case("ai", "integer[]", Kind.TEXT, 0, "'{1,2,NULL}'", "'{}'", null),
                    new Case(
                            "at",
                            "text[]",
                            Kind.TEXT,
                            0,
                            "'{\"x y\",z,\"\\\\\"}'",
                            "'{{a,b},{c,d}}'",
                            null),
                    new Case("ip", "inet", Kind.TEXT, 0, "'192.168.0.1/24'", "'::1'", null),
                    new Case("ci", "cidr", Kind.TEXT, 0, "'10.0.0.0/8'", "'2001:db8::/32'", null),
                    new Case(
                            "mac",
                            "macaddr",
                            Kind.TEXT,
                            0,
                            "'08:00:2b:01:02:03'",
                            "'ff:ff:ff:ff:ff:ff'",
                            null),
                    new Case("bt", "bit(5)", Kind.BITS, 5, "B'10110'", "B'00000'", null),
                    new Case("vb", "varbit(8)", Kind.TEXT, 0, "B'101'", "B''", null),
                    new Case("mo", "money", Kind.TEXT, 0, "12.34", "-92233720368547758.08", null),
                    new Case("dom", "m.posint", Kind.TEXT, 0, "7", "2147483647", null));

    private PgTypeMatrix() {}

    /** The types the table needs, then the table {@code schema.t}, REPLICA IDENTITY FULL. */
    static List<String> create(String schema) {
        StringJoiner columns = new StringJoiner(", ", "(id int PRIMARY KEY, ", ")");
        for (Case c : CASES) {
            columns.add(c.name() + " " + c.declaration().replace("m.", schema + "."));
        }
        return List.of(
                "CREATE SCHEMA " + schema,
                "CREATE TYPE " + schema + ".mood AS ENUM ('sad', 'happy')",
                "CREATE DOMAIN " + schema + ".posint AS integer CHECK (VALUE > 0)",
                "CREATE TABLE " + schema + ".t " + columns,
                "ALTER TABLE " + schema + ".t REPLICA IDENTITY FULL");
    }

    /** Row 1 with the first values, row 2 all NULL, and (with edges) row 3 with the edges. */
    static List<String> inserts(String schema, boolean edges) {
        List<String> sql = new ArrayList<>();
        StringJoiner values = new StringJoiner(", ", "(1, ", ")");
        CASES.forEach(c -> values.add(c.first()));
        sql.add("INSERT INTO " + schema + ".t VALUES " + values);
        sql.add("INSERT INTO " + schema + ".t (id) VALUES (2)");
        if (edges) {
            StringJoiner names = new StringJoiner(", ", "(id, ", ")");
            StringJoiner edge = new StringJoiner(", ", "(3, ", ")");
            for (Case c : CASES) {
                if (c.edge() != null) {
                    names.add(c.name());
                    edge.add(c.edge());
                }
            }
            sql.add("INSERT INTO " + schema + ".t " + names + " VALUES " + edge);
        }
        return sql;
    }

    /** One transaction per column: row 1 takes the second value, row 2 the first. */
    static List<String> updates(String schema) {
        List<String> sql = new ArrayList<>();
        for (Case c : CASES) {
            sql.add(
                    "BEGIN; UPDATE "
                            + schema
                            + ".t SET "
                            + c.name()
                            + " = "
                            + c.second()
                            + " WHERE id = 1; UPDATE "
                            + schema
                            + ".t SET "
                            + c.name()
                            + " = "
                            + c.first()
                            + " WHERE id = 2; COMMIT");
        }
        return sql;
    }

    /** The rows of a PostgreSQL table (source or target), one line a row, by key. */
    static List<String> postgres(Connection connection, String table, boolean forMariaDb)
            throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT id");
        for (Case c : CASES) {
            String column = '"' + c.name() + '"';
            sql.append(", ").append(forMariaDb ? c.kind().postgres(column) : column);
        }
        sql.append(" FROM ").append(table).append(" ORDER BY id");
        return rows(connection, sql.toString(), true, forMariaDb);
    }

    /** The rows of the MariaDB target table, as {@link #postgres} reads them for MariaDB. */
    static List<String> mariaDb(Connection connection, String table) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT id");
        for (Case c : CASES) {
            sql.append(", ").append(c.kind().mariaDb('`' + c.name() + '`', c.width()));
        }
        sql.append(" FROM ").append(table).append(" ORDER BY id");
        return rows(connection, sql.toString(), false, true);
    }

    private static List<String> rows(
            Connection connection, String sql, boolean postgres, boolean canonical)
            throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                StringJoiner row = new StringJoiner(" | ", "id=" + result.getLong(1) + " | ", "");
                for (int i = 0; i < CASES.size(); i++) {
                    Case c = CASES.get(i);
                    String value;
                    if (canonical) {
                        value = c.kind().read(result, i + 2, postgres);
                    } else {
                        String text = result.getString(i + 2);
                        value = text == null ? "NULL" : text;
                    }
                    row.add(c.name() + "=" + value);
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private static String padFraction(String text) {
        int dot = text.indexOf('.');
        StringBuilder padded = new StringBuilder(dot < 0 ? text + "." : text);
        int at = padded.indexOf(".");
        while (padded.length() - at - 1 < 6) {
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
            micros += Long.parseLong((seconds[1] + "000000").substring(0, 6));
        }
        return negative ? -micros : micros;
    }
}
