package io.changegrid.deploy.local;

import io.changegrid.gridkit.load.LoadDialect;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.PacedLoad;
import io.changegrid.gridkit.load.WorkloadTables;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The local grid's shop workload: the grid-kit workload ({@link LoadGenerator}: random business
 * rows, inserts, updates and deletes) on {@code shop.customers}, {@code shop.orders} and {@code
 * shop.order_items}, run by {@link PacedLoad} at a steady rate. The data is the same on every run
 * (seed 7). Before the grid starts, {@link #seed} gives the tables rows of their own (inserts
 * only), which the consumer copies with a snapshot; the demo then changes those rows too. Both
 * continue on whatever rows the tables hold, so a source given again keeps its rows and gets new
 * ids.
 */
final class DemoLoad {

    /** Row changes per demo transaction. */
    static final int TRANSACTION_SIZE = 5;

    /** Rows per transaction of the seed: few round trips, small statements. */
    private static final int SEED_TRANSACTION_SIZE = 100;

    private static final int RECORD_SIZE = 300;
    private static final long SEED = 7;
    private static final List<String> NAMES = List.of("customers", "orders", "order_items");

    private DemoLoad() {}

    /**
     * Creates the shop database (a schema on PostgreSQL) and whichever of its tables are missing.
     */
    static void createSchema(Connection connection, LoadDialect dialect) throws SQLException {
        if (dialect == LoadDialect.MARIADB) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS shop");
            }
        }
        generator(dialect, 1).createTables(connection);
    }

    /**
     * Inserts {@code rows} rows into the shop's tables as fast as the source takes them: the rows
     * that exist before the grid starts.
     */
    static LoadResult seed(Connection connection, LoadDialect dialect, long rows)
            throws SQLException, InterruptedException {
        if (rows == 0) {
            return new LoadResult(0, 0, 0, 0, 0, 0);
        }
        LoadShape shape =
                new LoadShape(
                        rows,
                        RECORD_SIZE,
                        NAMES.size(),
                        new OperationMix(100, 0, 0),
                        SEED_TRANSACTION_SIZE,
                        SEED + 1);
        return new LoadGenerator(WorkloadTables.of(dialect, "shop", NAMES), shape)
                .onExistingRows(connection)
                .run(connection, done -> {});
    }

    /**
     * Starts {@code transactions} shop transactions at {@code perSecond} on {@code connection},
     * changing the rows the tables hold as well as its own.
     */
    static PacedLoad start(
            Connection connection, LoadDialect dialect, long transactions, int perSecond)
            throws SQLException {
        return generator(dialect, transactions)
                .onExistingRows(connection)
                .startPaced("demo", connection, perSecond);
    }

    private static LoadGenerator generator(LoadDialect dialect, long transactions) {
        WorkloadTables tables = WorkloadTables.of(dialect, "shop", NAMES);
        return new LoadGenerator(
                tables,
                new LoadShape(
                        transactions * TRANSACTION_SIZE,
                        RECORD_SIZE,
                        tables.names().size(),
                        OperationMix.DEFAULT,
                        TRANSACTION_SIZE,
                        SEED));
    }
}
