package io.changegrid.bench.apply;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.HexFormat;

/**
 * A SHA-256 over every column of every row of the bench table ({@code bench.t1}), in key order,
 * with each value in a form both MariaDB and PostgreSQL give the same: integers and decimals as
 * plain text, the DATETIME as ISO text, the TIMESTAMP as microseconds since the epoch. Equal sums
 * mean the target holds the source's rows exactly (updates included), not just as many.
 */
final class TableChecksum {

    /** A summary of a table: its row count and its checksum. */
    record Sum(long rows, String sha256) {}

    private static final int TEXT_COLUMNS = 6;

    private TableChecksum() {}

    static Sum of(String url, String user, String password, boolean postgres) throws SQLException {
        try (Connection connection =
                DriverManager.getConnection(url, user, password == null ? "" : password)) {
            return of(connection, postgres);
        }
    }

    static Sum of(Connection connection, boolean postgres) throws SQLException {
        String updatedMicros =
                postgres
                        ? "(extract(epoch FROM updated) * 1000000)::bigint"
                        : "CAST(UNIX_TIMESTAMP(updated) * 1000000 AS SIGNED)";
        String table = postgres ? "bench.t1" : "`bench`.`t1`";
        String sql =
                "SELECT id, account, quantity, amount, created, "
                        + updatedMicros
                        + ", text1, text2, text3, text4, text5, text6 FROM "
                        + table
                        + " ORDER BY id";
        MessageDigest digest = sha256();
        StringBuilder row = new StringBuilder(1_200);
        long rows = 0;
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(
                false); // PostgreSQL streams with a fetch size only in a transaction
        try (Statement statement = connection.createStatement()) {
            statement.setFetchSize(5_000);
            try (ResultSet result = statement.executeQuery(sql)) {
                while (result.next()) {
                    row.setLength(0);
                    row.append(result.getLong(1)).append('|');
                    append(row, result.getObject(2)).append('|');
                    append(row, result.getObject(3)).append('|');
                    var amount = result.getBigDecimal(4);
                    row.append(amount == null ? "NULL" : amount.toPlainString()).append('|');
                    append(row, result.getObject(5, LocalDateTime.class)).append('|');
                    append(row, result.getObject(6)).append('|');
                    for (int t = 0; t < TEXT_COLUMNS; t++) {
                        append(row, result.getString(7 + t)).append('|');
                    }
                    row.append('\n');
                    digest.update(row.toString().getBytes(StandardCharsets.UTF_8));
                    rows++;
                }
            }
            connection.commit();
        } finally {
            connection.setAutoCommit(autoCommit);
        }
        return new Sum(rows, HexFormat.of().formatHex(digest.digest()));
    }

    private static StringBuilder append(StringBuilder row, Object value) {
        return row.append(value == null ? "NULL" : value.toString());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
