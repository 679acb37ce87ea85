package io.changegrid.deploy.cluster;

import io.changegrid.gridkit.load.PacedLoad;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Inserts rows {@code 1..rows} into {@code shop.items}, one transaction each, at a steady rate on a
 * thread of its own ({@link PacedLoad}): a stream of changes spread over every partition by key
 * hash.
 */
final class RowLoad implements AutoCloseable {

    static final String TABLE = "items";

    private final Connection connection;
    private final PacedLoad load;

    private RowLoad(Connection connection, PacedLoad load) {
        this.connection = connection;
        this.load = load;
    }

    /** Creates the table and starts inserting. */
    static RowLoad start(Connection connection, int rows, int perSecond) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(
                    "CREATE TABLE IF NOT EXISTS shop.items (id BIGINT PRIMARY KEY, note VARCHAR(60))");
        }
        PreparedStatement insert =
                connection.prepareStatement("INSERT INTO shop.items VALUES (?, ?)");
        PacedLoad load =
                PacedLoad.start(
                        "items",
                        rows,
                        perSecond,
                        new PacedLoad.Transaction() {
                            @Override
                            public long run(long id) throws SQLException {
                                insert.setLong(1, id);
                                insert.setString(2, "item " + id);
                                return insert.executeUpdate();
                            }

                            @Override
                            public void close() throws SQLException {
                                insert.close();
                            }
                        });
        return new RowLoad(connection, load);
    }

    long committed() {
        return load.committedTransactions();
    }

    /** Waits until every row is committed; rethrows the load's failure. */
    void awaitDone(long seconds) throws InterruptedException {
        load.awaitDone(Duration.ofSeconds(seconds));
    }

    @Override
    public void close() throws SQLException {
        // A failure is the test's to report, through awaitDone; closing only stops the load.
        load.close();
        connection.close();
    }
}
