package io.changegrid.bench.chaos;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One table compared between the source (MariaDB) and the target (PostgreSQL), row by primary key
 * ({@code id}): every column of the source, in a form both servers give alike (decimals as plain
 * text, integers and text as themselves, {@code NULL} marked), and a SHA-256 over each side's rows
 * in key order. A row only in the source is lost, only in the target extra, in both with other
 * values differing; a column the target lacks makes every row differ.
 *
 * @param table {@code database.table}
 * @param sourceRows rows at the source
 * @param targetRows rows in the target
 * @param lost keys at the source missing in the target
 * @param extra keys in the target the source does not hold
 * @param differing keys in both whose values differ
 * @param sourceSha256 over the source's rows
 * @param targetSha256 over the target's rows
 * @param examples up to {@value #EXAMPLES} keys of each kind of difference, e.g. {@code lost 17},
 *     for whoever investigates
 */
record TableDiff(
        String table,
        long sourceRows,
        long targetRows,
        long lost,
        long extra,
        long differing,
        String sourceSha256,
        String targetSha256,
        List<String> examples) {

    static final int EXAMPLES = 5;

    private static final String NULL = "\u2400";
    private static final String MISSING_COLUMN = "\u2205";

    boolean equal() {
        return lost == 0 && extra == 0 && differing == 0;
    }

    /** Compares {@code schema.table} on both sides; the source's columns decide what is read. */
    static TableDiff of(Connection source, Connection target, String schema, String table)
            throws SQLException {
        List<String> columns = columns(source, schema, table);
        List<String> targetColumns = columns(target, schema, table);
        Map<Long, String> sourceRows = rows(source, schema + "." + table, columns, columns);
        Map<Long, String> targetRows =
                targetColumns.isEmpty()
                        ? new TreeMap<>()
                        : rows(target, schema + "." + table, columns, targetColumns);
        long lost = 0;
        long differing = 0;
        long extra = 0;
        List<String> examples = new ArrayList<>();
        for (Map.Entry<Long, String> row : sourceRows.entrySet()) {
            String other = targetRows.get(row.getKey());
            if (other == null) {
                lost = count(lost, "lost", row.getKey(), examples);
            } else if (!other.equals(row.getValue())) {
                differing = count(differing, "differing", row.getKey(), examples);
            }
        }
        for (Long key : targetRows.keySet()) {
            if (!sourceRows.containsKey(key)) {
                extra = count(extra, "extra", key, examples);
            }
        }
        return new TableDiff(
                schema + "." + table,
                sourceRows.size(),
                targetRows.size(),
                lost,
                extra,
                differing,
                sha256(sourceRows),
                sha256(targetRows),
                List.copyOf(examples));
    }

    /** One more difference of a kind: counted, and its key kept while there are few. */
    private static long count(long sofar, String kind, long key, List<String> examples) {
        if (sofar < EXAMPLES) {
            examples.add(kind + " " + key);
        }
        return sofar + 1;
    }

    /** The table's column names in order, lower case; empty when the table does not exist. */
    private static List<String> columns(Connection connection, String schema, String table)
            throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement query =
                connection.prepareStatement(
                        "SELECT column_name FROM information_schema.columns WHERE table_schema = ?"
                                + " AND table_name = ? ORDER BY ordinal_position")) {
            query.setString(1, schema);
            query.setString(2, table);
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    names.add(result.getString(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return names;
    }

    /**
     * Key to the row's text, reading {@code wanted} columns of which the table has {@code present}.
     */
    private static Map<Long, String> rows(
            Connection connection, String table, List<String> wanted, List<String> present)
            throws SQLException {
        List<String> read = wanted.stream().filter(present::contains).toList();
        Map<Long, String> rows = new TreeMap<>();
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false); // PostgreSQL streams with a fetch size only in one
        try (Statement statement = connection.createStatement()) {
            statement.setFetchSize(5_000);
            try (ResultSet result =
                    statement.executeQuery(
                            "SELECT " + String.join(", ", read) + " FROM " + table)) {
                StringBuilder text = new StringBuilder(512);
                while (result.next()) {
                    text.setLength(0);
                    for (String column : wanted) {
                        int index = read.indexOf(column);
                        text.append(
                                index < 0 ? MISSING_COLUMN : value(result.getObject(index + 1)));
                        text.append('|');
                    }
                    rows.put(result.getLong(read.indexOf("id") + 1), text.toString());
                }
            }
            connection.commit();
        } finally {
            connection.setAutoCommit(autoCommit);
        }
        return rows;
    }

    private static String value(Object value) {
        if (value == null) {
            return NULL;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        return value.toString();
    }

    private static String sha256(Map<Long, String> rows) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<Long, String> row : rows.entrySet()) {
                digest.update(
                        (row.getKey() + "=" + row.getValue() + "\n")
                                .getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
