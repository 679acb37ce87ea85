package io.changegrid.bench.chaos;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The chaos run's steady mixed load on the source, on its own thread: small transactions of
 * inserts, updates and deletes on two tables at a fixed rate, now and then a large one (thousands
 * of rows in one transaction), and once, at a given moment, {@code ALTER TABLE ... ADD COLUMN}.
 *
 * <p>The source is killed under it: a transaction whose connection breaks may or may not have
 * committed, so the load never assumes either; it reconnects and goes on with new keys (the end
 * comparison reads what the source really holds). Keys are never changed (a consumer group keeps
 * per-key order only within a partition) and nothing is truncated.
 *
 * <p>Threading: {@link #start()} runs the load on a thread of its own; the counters and {@link
 * #stop()} may be used from any thread.
 */
final class ChaosLoad {

    static final String SCHEMA = "chaos";
    static final String[] TABLES = {"accounts", "transfers"};
    static final int PRELOADED_ACCOUNTS = 2_000;
    static final int PRELOADED_TRANSFERS = 200;
    private static final int LARGE_ROWS = 2_000;
    private static final int LARGE_EVERY = 250;

    private final String url;
    private final String user;
    private final String password;
    private final Random random;
    private final int rate;
    private final long ddlAtNanos;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong broken = new AtomicLong();
    private final AtomicLong large = new AtomicLong();
    private final AtomicLong ddlSeconds = new AtomicLong(-1);
    private final long startNanos = System.nanoTime();
    private Thread thread;
    private Connection connection;
    private long nextAccount = PRELOADED_ACCOUNTS + 1;
    private long nextTransfer = PRELOADED_TRANSFERS + 1;

    /**
     * @param ddlAfterSeconds when the {@code ADD COLUMN} runs, counted from construction
     */
    ChaosLoad(String url, String user, String password, long seed, int rate, long ddlAfterSeconds) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.random = new Random(seed);
        this.rate = rate;
        this.ddlAtNanos = startNanos + TimeUnit.SECONDS.toNanos(ddlAfterSeconds);
    }

    /**
     * Creates the schema, the preloaded accounts and transfers (before any relay starts; the
     * appliers create both target tables from them).
     */
    static void createSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + SCHEMA);
            statement.execute(
                    "CREATE TABLE chaos.accounts (id BIGINT PRIMARY KEY, owner VARCHAR(40) NOT"
                            + " NULL, balance DECIMAL(14,2) NOT NULL, version INT NOT NULL, note"
                            + " TEXT)");
            statement.execute(
                    "CREATE TABLE chaos.transfers (id BIGINT PRIMARY KEY, account_id BIGINT NOT"
                            + " NULL, amount DECIMAL(12,2) NOT NULL, memo VARCHAR(200))");
        }
        connection.setAutoCommit(false);
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO chaos.accounts (id, owner, balance, version, note) VALUES (?,"
                                + " ?, 100.00, 0, ?)")) {
            for (int id = 1; id <= PRELOADED_ACCOUNTS; id++) {
                insert.setLong(1, id);
                insert.setString(2, "owner-" + id);
                insert.setString(3, "n".repeat(id % 300));
                insert.addBatch();
            }
            insert.executeBatch();
        }
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO chaos.transfers VALUES (?, ?, 1.00, 'preloaded')")) {
            for (int id = 1; id <= PRELOADED_TRANSFERS; id++) {
                insert.setLong(1, id);
                insert.setLong(2, id);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    void start() {
        thread = new Thread(this::run, "chaos-load");
        thread.setDaemon(true);
        thread.start();
    }

    /** Ends the load after the transaction in flight; returns once the thread has ended. */
    void stop() throws InterruptedException {
        running.set(false);
        thread.join(TimeUnit.MINUTES.toMillis(2));
        closeQuietly();
    }

    long committed() {
        return committed.get();
    }

    /** Transactions whose connection broke (the source was down): committed or not, unknown. */
    long broken() {
        return broken.get();
    }

    long large() {
        return large.get();
    }

    /** Seconds into the load when the {@code ADD COLUMN} committed; -1 before. */
    long ddlSeconds() {
        return ddlSeconds.get();
    }

    private void run() {
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long next = System.nanoTime();
        long number = 0;
        while (running.get()) {
            // Pacing, not synchronisation: the load has a rate.
            LockSupport.parkNanos(next - System.nanoTime());
            next += interval;
            if (next < System.nanoTime() - TimeUnit.SECONDS.toNanos(1)) {
                next = System.nanoTime(); // behind after an outage: no burst to catch up
            }
            number++;
            try {
                if (connection == null) {
                    connection = DriverManager.getConnection(url, user, password);
                    connection.setAutoCommit(false);
                }
                transaction(number);
                connection.commit();
                committed.incrementAndGet();
            } catch (SQLException e) {
                broken.incrementAndGet();
                closeQuietly(); // the source went away: reconnect on the next tick
            }
        }
    }

    private void transaction(long number) throws SQLException {
        if (ddlSeconds.get() < 0 && System.nanoTime() >= ddlAtNanos) {
            try (Statement statement = connection.createStatement()) {
                // IF NOT EXISTS: a DDL cut short by a source kill is simply run again.
                statement.execute("ALTER TABLE chaos.accounts ADD COLUMN IF NOT EXISTS tier INT");
            }
            ddlSeconds.set(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos));
            return;
        }
        if (number % LARGE_EVERY == 0) {
            largeTransaction();
            return;
        }
        int statements = 1 + random.nextInt(6);
        for (int i = 0; i < statements; i++) {
            int kind = random.nextInt(100);
            if (kind < 25) {
                insertAccount();
            } else if (kind < 50) {
                insertTransfer();
            } else if (kind < 85) {
                updateAccount();
            } else if (kind < 93) {
                delete("accounts", 1 + random.nextInt((int) nextAccount));
            } else {
                delete("transfers", 1 + random.nextInt((int) nextTransfer));
            }
        }
    }

    private void largeTransaction() throws SQLException {
        large.incrementAndGet();
        if (random.nextBoolean()) {
            try (PreparedStatement insert =
                    connection.prepareStatement(
                            "INSERT INTO chaos.transfers VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < LARGE_ROWS; i++) {
                    bindTransfer(insert);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        } else {
            long from = 1 + random.nextInt((int) nextAccount);
            try (PreparedStatement update =
                    connection.prepareStatement(
                            "UPDATE chaos.accounts SET balance = balance + 1, version = version"
                                    + " + 1 WHERE id BETWEEN ? AND ?")) {
                update.setLong(1, from);
                update.setLong(2, from + LARGE_ROWS);
                update.executeUpdate();
            }
        }
    }

    private void insertAccount() throws SQLException {
        long id = nextAccount++;
        try (PreparedStatement insert =
                connection.prepareStatement(
                        "INSERT INTO chaos.accounts (id, owner, balance, version, note) VALUES (?,"
                                + " ?, ?, 0, ?)")) {
            insert.setLong(1, id);
            insert.setString(2, "owner-" + id);
            insert.setBigDecimal(3, money(100_000));
            insert.setString(4, random.nextInt(4) == 0 ? null : "x".repeat(random.nextInt(400)));
            insert.executeUpdate();
        }
    }

    private void insertTransfer() throws SQLException {
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO chaos.transfers VALUES (?, ?, ?, ?)")) {
            bindTransfer(insert);
            insert.executeUpdate();
        }
    }

    private void bindTransfer(PreparedStatement insert) throws SQLException {
        insert.setLong(1, nextTransfer++);
        insert.setLong(2, 1 + random.nextInt((int) nextAccount));
        insert.setBigDecimal(3, money(10_000));
        insert.setString(4, "memo " + random.nextInt(1_000_000));
    }

    private void updateAccount() throws SQLException {
        boolean withTier = ddlSeconds.get() >= 0;
        String sql =
                "UPDATE chaos.accounts SET balance = ?, version = version + 1"
                        + (withTier ? ", tier = ?" : "")
                        + " WHERE id = ?";
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setBigDecimal(1, money(100_000));
            int next = 2;
            if (withTier) {
                update.setInt(next++, random.nextInt(5));
            }
            update.setLong(next, 1 + random.nextInt((int) nextAccount));
            update.executeUpdate();
        }
    }

    private void delete(String table, long id) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM chaos." + table + " WHERE id = ?")) {
            delete.setLong(1, id);
            delete.executeUpdate();
        }
    }

    private BigDecimal money(int maxCents) {
        return BigDecimal.valueOf(random.nextInt(maxCents), 2);
    }

    private void closeQuietly() {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // A connection to a killed server cannot close cleanly; it is dropped either way.
        }
        connection = null;
    }
}
