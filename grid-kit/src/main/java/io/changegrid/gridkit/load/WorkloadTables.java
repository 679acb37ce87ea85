package io.changegrid.gridkit.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The workload's tables: one database, tables of the same columns ({@link RowValues}) with business
 * names, taken round-robin by the transactions.
 */
public final class WorkloadTables {

    private static final String[] NAMES = {
        "orders",
        "customers",
        "payments",
        "shipments",
        "invoices",
        "products",
        "accounts",
        "reviews",
        "carts",
        "refunds",
        "suppliers",
        "stock",
        "visits",
        "messages",
        "tickets",
        "addresses",
        "coupons",
        "returns",
        "sessions",
        "events"
    };

    private final LoadDialect dialect;
    private final String database;
    private final List<String> names;

    private WorkloadTables(LoadDialect dialect, String database, List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("workload needs a table: database=" + database);
        }
        this.dialect = dialect;
        this.database = database;
        this.names = List.copyOf(names);
    }

    /** The tables {@code names} in the MariaDB database {@code database}, in load order. */
    public static WorkloadTables of(String database, List<String> names) {
        return new WorkloadTables(LoadDialect.MARIADB, database, names);
    }

    /**
     * The tables {@code names} in {@code database} (a schema on PostgreSQL) of a source speaking
     * {@code dialect}, in the order transactions take them.
     */
    public static WorkloadTables of(LoadDialect dialect, String database, List<String> names) {
        return new WorkloadTables(dialect, database, names);
    }

    public LoadDialect dialect() {
        return dialect;
    }

    /**
     * The business name of candidate {@code n} (0, 1, ...): twenty names, then the same with a
     * suffix ({@code orders_1}), so a caller choosing tables by some rule never runs out.
     */
    public static String candidateName(int n) {
        return n < NAMES.length ? NAMES[n] : NAMES[n % NAMES.length] + "_" + n / NAMES.length;
    }

    /** Table names, in the order transactions take them round-robin. */
    public List<String> names() {
        return names;
    }

    public String database() {
        return database;
    }

    /**
     * Creates the tables that do not exist yet (a quickstart given an existing source keeps its
     * tables); note columns are {@code maxText} characters long.
     */
    void create(Connection connection, int maxText) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : dialect.createNamespace(database)) {
                statement.execute(sql);
            }
            for (int table = 0; table < names.size(); table++) {
                for (String sql : dialect.createTable(qualified(table), maxText)) {
                    statement.execute(sql);
                }
            }
        }
    }

    /** The table's qualified name, quoted in the dialect. */
    String qualified(int table) {
        return dialect.quote(database) + "." + dialect.quote(names.get(table));
    }
}
