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

    private final String database;
    private final List<String> names;

    private WorkloadTables(String database, List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("workload needs a table: database=" + database);
        }
        this.database = database;
        this.names = List.copyOf(names);
    }

    /** The tables {@code names} in {@code database}, in the order transactions take them. */
    public static WorkloadTables of(String database, List<String> names) {
        return new WorkloadTables(database, names);
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
            for (String name : names) {
                StringBuilder ddl =
                        new StringBuilder("CREATE TABLE IF NOT EXISTS `")
                                .append(database)
                                .append("`.`")
                                .append(name)
                                .append("` (id BIGINT PRIMARY KEY, account INT NOT NULL,")
                                .append(" quantity INT, amount DECIMAL(12,2), status VARCHAR(12),")
                                .append(" code CHAR(5), name VARCHAR(40), created DATETIME(6),")
                                .append(" updated TIMESTAMP(6) NULL");
                for (int c = 1; c <= RowValues.TEXT_COLUMNS; c++) {
                    ddl.append(", note").append(c).append(" VARCHAR(").append(maxText).append(')');
                }
                statement.execute(ddl.append(") ENGINE=InnoDB CHARACTER SET utf8mb4").toString());
            }
        }
    }

    /** {@code `database`.`table`}. */
    String qualified(int table) {
        return "`" + database + "`.`" + names.get(table) + "`";
    }
}
