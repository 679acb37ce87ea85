package io.changegrid.appliers.it;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.StringJoiner;

/**
 * Reads a table's rows as comparable text, one line a row, sorted in Java (the two databases'
 * collations order keys differently), with a checksum.
 */
final class TableContents {

    /** One column to compare. */
    record Spec(String name, Canon canon, int width) {
        static Spec of(String name, Canon canon) {
            return new Spec(name, canon, 0);
        }
    }

    private TableContents() {}

    static List<String> rows(Connection connection, String table, List<Spec> columns, boolean pg)
            throws SQLException {
        StringJoiner select = new StringJoiner(", ");
        for (Spec column : columns) {
            select.add(column.canon().select(column.name(), pg, column.width()));
        }
        List<String> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT " + select + " FROM " + table)) {
            while (result.next()) {
                StringJoiner row = new StringJoiner(" | ");
                for (int i = 0; i < columns.size(); i++) {
                    row.add(
                            columns.get(i).name()
                                    + "="
                                    + columns.get(i).canon().read(result, i + 1, pg));
                }
                rows.add(row.toString());
            }
        }
        java.util.Collections.sort(rows);
        return rows;
    }

    static String checksum(List<String> rows) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String row : rows) {
                digest.update(row.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
