package io.changegrid.deploy.cluster;

import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.PacedLoad;
import io.changegrid.gridkit.load.WorkloadTables;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * Inserts rows {@code 1..rows} into {@code shop.items}, one transaction each, at a steady rate: the
 * grid-kit workload ({@link LoadGenerator}, inserts only, small rows) paced by {@link PacedLoad}. A
 * stream of changes spread over every partition by key hash.
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
        LoadGenerator generator =
                new LoadGenerator(
                        WorkloadTables.of("shop", List.of(TABLE)),
                        new LoadShape(
                                rows,
                                LoadShape.MIN_RECORD_SIZE,
                                1,
                                new OperationMix(100, 0, 0),
                                1,
                                7));
        generator.createTables(connection);
        return new RowLoad(connection, generator.startPaced(TABLE, connection, perSecond));
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
