package io.changegrid.bench.load;

import io.changegrid.policy.partition.Partitioner;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The load's tables: same columns ({@link RowValues}), business names chosen so that splitting by
 * table ({@link Partitioner.ByTable}, a hash of {@code database.table}) gives every partition its
 * share for each partition count the run uses; the whitepaper assigned tables to relays by hand.
 */
public final class BenchTables {

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

    private BenchTables(String database, List<String> names) {
        this.database = database;
        this.names = List.copyOf(names);
    }

    /**
     * {@code count} tables in {@code database} whose names split evenly by table hash into each of
     * {@code partitionCounts} (as evenly as the counts allow: no partition gets more than its
     * rounded-up share).
     */
    public static BenchTables balanced(String database, int count, Set<Integer> partitionCounts) {
        List<String> chosen = new ArrayList<>();
        List<int[]> filled = new ArrayList<>();
        List<Integer> counts = new ArrayList<>(partitionCounts);
        for (int n : counts) {
            filled.add(new int[n]);
        }
        for (int candidate = 0; chosen.size() < count; candidate++) {
            String name =
                    candidate < NAMES.length
                            ? NAMES[candidate]
                            : NAMES[candidate % NAMES.length] + "_" + candidate / NAMES.length;
            if (candidate > 1000 * count) {
                chosen.add(name); // no balanced set found: take names as they come
                continue;
            }
            boolean fits = true;
            for (int i = 0; i < counts.size() && fits; i++) {
                int n = counts.get(i);
                int share = (count + n - 1) / n;
                fits = filled.get(i)[partition(database, name, n)] < share;
            }
            if (fits) {
                for (int i = 0; i < counts.size(); i++) {
                    filled.get(i)[partition(database, name, counts.get(i))]++;
                }
                chosen.add(name);
            }
        }
        return new BenchTables(database, chosen);
    }

    private static int partition(String database, String table, int partitions) {
        return new Partitioner.ByTable(partitions).partitionOfTable(database, table);
    }

    /** Table names, in the order transactions take them round-robin. */
    public List<String> names() {
        return names;
    }

    public String database() {
        return database;
    }

    /** How many tables land in each of {@code partitions} when split by table. */
    public int[] tablesPerPartition(int partitions) {
        int[] tables = new int[partitions];
        for (String name : names) {
            tables[partition(database, name, partitions)]++;
        }
        return tables;
    }

    /** Creates the tables; text columns are as long as {@code values} can make them. */
    void create(Connection connection, int maxText) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String name : names) {
                StringBuilder ddl =
                        new StringBuilder("CREATE TABLE `")
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
