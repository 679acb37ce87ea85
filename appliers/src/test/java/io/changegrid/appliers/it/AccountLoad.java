package io.changegrid.appliers.it;

import io.changegrid.gridkit.server.MariaDbServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady load on {@code <db>.accounts} and {@code <db>.audit}: each transaction moves an
 * account's balance, raises its version and records the move in an insert-only audit row. It writes
 * to whichever server {@link #writeTo} names (none: it waits); a failed transaction (the server was
 * killed or is read-only) is retried on a new connection with a new audit id, so ids are never
 * reused whatever the fate of a commit that was cut off.
 */
final class AccountLoad implements AutoCloseable {

    static final int ACCOUNTS = 20;

    private final String db;
    private final Random random;
    private final AtomicReference<MariaDbServer> target = new AtomicReference<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger committed = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger nextAudit = new AtomicInteger(1);
    private volatile boolean paused;
    private final Thread thread;

    AccountLoad(String db, long seed) {
        this.db = db;
        this.random = new Random(seed);
        this.thread = new Thread(this::run, "account-load");
        thread.setDaemon(true);
        thread.start();
    }

    /** The statements that create the tables and the accounts, for the source. */
    static String[] schema(String db) {
        StringBuilder accounts = new StringBuilder("INSERT INTO " + db + ".accounts VALUES ");
        for (int id = 1; id <= ACCOUNTS; id++) {
            accounts.append(id == 1 ? "" : ", ").append("(").append(id).append(", 0, 0)");
        }
        return new String[] {
            "CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".accounts (id INT PRIMARY KEY, balance BIGINT, version INT)",
            "CREATE TABLE " + db + ".audit (id INT PRIMARY KEY, account INT, delta INT)",
            accounts.toString()
        };
    }

    /** Writes from now on to {@code server}, or pauses with null. */
    void writeTo(MariaDbServer server) {
        target.set(server);
    }

    /**
     * Waits until the load saw {@link #writeTo}{@code (null)}: the transaction it was in has ended,
     * committed or not, and nothing more is written.
     */
    void awaitPaused() {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .pollInterval(java.time.Duration.ofMillis(10))
                .until(() -> paused && target.get() == null);
    }

    /** Transactions whose commit returned. */
    int committed() {
        return committed.get();
    }

    /** Transactions that failed (and were retried with a new id). */
    int failed() {
        return failed.get();
    }

    private void run() {
        Connection connection = null;
        MariaDbServer on = null;
        while (running.get()) {
            MariaDbServer server = target.get();
            paused = server == null;
            if (server == null) {
                connection = close(connection);
                LockSupport.parkNanos(
                        TimeUnit.MILLISECONDS.toNanos(5)); // paused: nothing to wait on
                continue;
            }
            try {
                if (connection == null || server != on) {
                    close(connection);
                    connection = server.connect();
                    connection.setAutoCommit(false);
                    on = server;
                }
                transaction(connection);
                committed.incrementAndGet();
            } catch (SQLException e) {
                failed.incrementAndGet();
                connection = close(connection);
                // A dead or read-only server: retry without spinning the shared cores.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
        close(connection);
    }

    private void transaction(Connection connection) throws SQLException {
        int account = 1 + random.nextInt(ACCOUNTS);
        int delta = random.nextInt(201) - 100;
        try (PreparedStatement update =
                        connection.prepareStatement(
                                "UPDATE "
                                        + db
                                        + ".accounts SET balance = balance + ?, version = version"
                                        + " + 1 WHERE id = ?");
                PreparedStatement insert =
                        connection.prepareStatement(
                                "INSERT INTO " + db + ".audit VALUES (?, ?, ?)")) {
            update.setInt(1, delta);
            update.setInt(2, account);
            update.executeUpdate();
            insert.setInt(1, nextAudit.getAndIncrement());
            insert.setInt(2, account);
            insert.setInt(3, delta);
            insert.executeUpdate();
            connection.commit();
        }
    }

    private static Connection close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // The server is gone: the connection is dropped anyway.
            }
        }
        return null;
    }

    /** Stops the load and waits for the transaction in progress. */
    @Override
    public void close() {
        running.set(false);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
