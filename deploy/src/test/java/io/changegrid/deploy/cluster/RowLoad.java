package io.changegrid.deploy.cluster;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Inserts rows {@code 1..rows} into {@code shop.items}, one transaction each, at a steady rate on a
 * thread of its own: a stream of changes spread over every partition by key hash.
 */
final class RowLoad implements AutoCloseable {

    static final String TABLE = "items";

    private final Connection connection;
    private final AtomicLong committed = new AtomicLong();
    private final CompletableFuture<Void> done;
    private volatile boolean stopped;

    private RowLoad(Connection connection, int rows, int perSecond) {
        this.connection = connection;
        this.done = CompletableFuture.runAsync(() -> insert(rows, perSecond));
    }

    /** Creates the table and starts inserting. */
    static RowLoad start(Connection connection, int rows, int perSecond) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute(
                    "CREATE TABLE IF NOT EXISTS shop.items (id BIGINT PRIMARY KEY, note VARCHAR(60))");
        }
        return new RowLoad(connection, rows, perSecond);
    }

    long committed() {
        return committed.get();
    }

    /** Waits until every row is committed; rethrows the load's failure. */
    void awaitDone(long seconds) throws Exception {
        done.get(seconds, TimeUnit.SECONDS);
    }

    private void insert(int rows, int perSecond) {
        long interval = TimeUnit.SECONDS.toNanos(1) / perSecond;
        long next = System.nanoTime();
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO shop.items VALUES (?, ?)")) {
            for (long id = 1; id <= rows && !stopped; id++) {
                insert.setLong(1, id);
                insert.setString(2, "item " + id);
                insert.executeUpdate();
                committed.incrementAndGet();
                next += interval;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("load failed after rows=" + committed.get(), e);
        }
    }

    @Override
    public void close() throws SQLException {
        stopped = true;
        try {
            done.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // Closing after a failure the test reports itself, through awaitDone.
        }
        connection.close();
    }
}
