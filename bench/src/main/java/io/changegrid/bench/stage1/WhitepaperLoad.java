package io.changegrid.bench.stage1;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;

/**
 * The whitepaper's workload: {@code tables} tables of ~1,100-byte rows of random data, spread
 * evenly; {@code rows} inserts, then every row updated once. Rows carry random text, varied numbers
 * and dates, not sequential filler. Written with multi-row statements so that the generator is not
 * what limits the run.
 */
final class WhitepaperLoad {

    static final int TEXT_COLUMNS = 6;
    static final int TEXT_LENGTH = 160;
    private static final String ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.-";

    private final int tables;
    private final int rowsPerTransaction;
    private final Random random;

    WhitepaperLoad(int tables, int rowsPerTransaction, long seed) {
        this.tables = tables;
        this.rowsPerTransaction = rowsPerTransaction;
        this.random = new Random(seed);
    }

    void createTables(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS bench");
            for (int t = 1; t <= tables; t++) {
                StringBuilder ddl =
                        new StringBuilder(
                                "CREATE TABLE bench.t"
                                        + t
                                        + " (id BIGINT PRIMARY KEY,"
                                        + " account INT NOT NULL, quantity INT, amount DECIMAL(12,2), created DATETIME(6),"
                                        + " updated TIMESTAMP(6) NULL");
                for (int c = 1; c <= TEXT_COLUMNS; c++) {
                    ddl.append(", text").append(c).append(" VARCHAR(255)");
                }
                statement.execute(ddl.append(") ENGINE=InnoDB CHARACTER SET utf8mb4").toString());
            }
        }
    }

    /** Inserts {@code rows} rows, spread evenly over the tables; returns the rows written. */
    long insert(Connection connection, long rows, Progress progress) throws SQLException {
        connection.setAutoCommit(false);
        long written = 0;
        try (Statement statement = connection.createStatement()) {
            while (written < rows) {
                int table = (int) (written / rowsPerTransaction % tables) + 1;
                int batch = (int) Math.min(rowsPerTransaction, rows - written);
                StringBuilder sql =
                        new StringBuilder(batch * 1200)
                                .append("INSERT INTO bench.t")
                                .append(table)
                                .append(" VALUES ");
                for (int i = 0; i < batch; i++) {
                    if (i > 0) {
                        sql.append(',');
                    }
                    row(sql, written + i + 1);
                }
                statement.execute(sql.toString());
                connection.commit();
                written += batch;
                progress.report(written);
            }
        }
        return written;
    }

    /** Updates every row once (text and numbers), in transactions of the same size. */
    long update(Connection connection, long rows, Progress progress) throws SQLException {
        connection.setAutoCommit(false);
        long updated = 0;
        try (Statement statement = connection.createStatement()) {
            while (updated < rows) {
                int table = (int) (updated / rowsPerTransaction % tables) + 1;
                int batch = (int) Math.min(rowsPerTransaction, rows - updated);
                statement.execute(
                        "UPDATE bench.t"
                                + table
                                + " SET quantity = quantity + 1, amount = amount * 1.01,"
                                + " text1 = '"
                                + text(TEXT_LENGTH)
                                + "', updated = NOW(6) WHERE id BETWEEN "
                                + (updated + 1)
                                + " AND "
                                + (updated + batch));
                connection.commit();
                updated += batch;
                progress.report(rows + updated);
            }
        }
        return updated;
    }

    private void row(StringBuilder sql, long id) {
        sql.append('(')
                .append(id)
                .append(',')
                .append(random.nextInt(1_000_000))
                .append(',')
                .append(random.nextInt(1000))
                .append(',')
                .append(random.nextInt(100_000_000) / 100.0)
                .append(",'")
                .append(2015 + random.nextInt(10))
                .append('-')
                .append(1 + random.nextInt(12))
                .append('-')
                .append(1 + random.nextInt(28))
                .append(' ')
                .append(random.nextInt(24))
                .append(':')
                .append(random.nextInt(60))
                .append(':')
                .append(random.nextInt(60))
                .append('.')
                .append(random.nextInt(1_000_000))
                .append("',NOW(6)");
        for (int c = 0; c < TEXT_COLUMNS; c++) {
            sql.append(",'").append(text(TEXT_LENGTH)).append('\'');
        }
        sql.append(')');
    }

    private String text(int length) {
        char[] text = new char[length];
        for (int i = 0; i < length; i++) {
            text[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(text);
    }

    /** Told how many row changes are done, to show progress. */
    @FunctionalInterface
    interface Progress {
        void report(long done);
    }
}
