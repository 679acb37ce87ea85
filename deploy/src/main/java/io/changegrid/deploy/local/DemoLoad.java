package io.changegrid.deploy.local;

import io.changegrid.gridkit.load.LoadDialect;
import io.changegrid.gridkit.load.LoadGenerator;
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
 * (seed 7).
 */
final class DemoLoad {

    /** Row changes per demo transaction. */
    static final int TRANSACTION_SIZE = 5;

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

    /** Starts {@code transactions} shop transactions at {@code perSecond} on {@code connection}. */
    static PacedLoad start(
            Connection connection, LoadDialect dialect, long transactions, int perSecond)
            throws SQLException {
        return generator(dialect, transactions).startPaced("demo", connection, perSecond);
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
