package io.changegrid.deploy.local;

import io.changegrid.gridkit.load.PacedLoad;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;

/**
 * The local grid's shop workload: customers, orders and order items, in transactions that insert,
 * update and delete across the three tables. {@link PacedLoad} runs it at a steady rate; the data
 * is the same on every run (seed 7).
 *
 * <p>Threading: the load thread alone uses it, from its first transaction to {@link #close()}.
 */
final class DemoLoad implements PacedLoad.Transaction {

    private final Connection connection;
    private final Random random = new Random(7);
    private final PreparedStatement customer;
    private final PreparedStatement order;
    private final PreparedStatement item;
    private final PreparedStatement pay;
    private final PreparedStatement cancel;

    private DemoLoad(Connection connection) throws SQLException {
        this.connection = connection;
        this.customer =
                connection.prepareStatement(
                        "INSERT INTO shop.customers VALUES (?, ?, ?, CURRENT_DATE) ON DUPLICATE KEY UPDATE name = VALUES(name)");
        this.order =
                connection.prepareStatement(
                        "INSERT INTO shop.orders VALUES (?, ?, ?, 'new', NOW(6))");
        this.item = connection.prepareStatement("INSERT INTO shop.order_items VALUES (?, ?, ?, ?)");
        this.pay =
                connection.prepareStatement("UPDATE shop.orders SET status = 'paid' WHERE id = ?");
        this.cancel =
                connection.prepareStatement(
                        "DELETE FROM shop.order_items WHERE order_id = ? AND line = 1");
        connection.setAutoCommit(false);
    }

    static void createSchema(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS shop");
            statement.execute(
                    "CREATE TABLE IF NOT EXISTS shop.customers (id INT PRIMARY KEY, name VARCHAR(60),"
                            + " email VARCHAR(80), since DATE)");
            statement.execute(
                    "CREATE TABLE IF NOT EXISTS shop.orders (id BIGINT PRIMARY KEY, customer_id INT,"
                            + " total DECIMAL(10,2), status ENUM('new','paid','shipped'), placed DATETIME(6))");
            statement.execute(
                    "CREATE TABLE IF NOT EXISTS shop.order_items (order_id BIGINT, line INT,"
                            + " sku VARCHAR(20), quantity INT, PRIMARY KEY (order_id, line))");
        }
    }

    /** Starts {@code transactions} shop transactions at {@code perSecond} on {@code connection}. */
    static PacedLoad start(Connection connection, long transactions, int perSecond)
            throws SQLException {
        return PacedLoad.start("demo", transactions, perSecond, new DemoLoad(connection));
    }

    @Override
    public long run(long n) throws SQLException {
        int customerId = 1 + random.nextInt(500);
        customer.setInt(1, customerId);
        customer.setString(2, "customer " + customerId);
        customer.setString(3, "c" + customerId + "@example.com");
        customer.executeUpdate();
        order.setLong(1, n);
        order.setInt(2, customerId);
        order.setBigDecimal(3, BigDecimal.valueOf(100 + random.nextInt(100_000), 2));
        order.executeUpdate();
        int lines = 1 + random.nextInt(3);
        for (int line = 1; line <= lines; line++) {
            item.setLong(1, n);
            item.setInt(2, line);
            item.setString(3, "SKU-" + random.nextInt(1000));
            item.setInt(4, 1 + random.nextInt(5));
            item.executeUpdate();
        }
        long changed = 2 + lines;
        if (n > 10 && random.nextInt(4) == 0) {
            pay.setLong(1, n - 10);
            changed += pay.executeUpdate();
            cancel.setLong(1, n - 10);
            changed += cancel.executeUpdate();
        }
        connection.commit();
        return changed;
    }

    @Override
    public void close() throws SQLException {
        // The connection is the caller's and closes after the load; these are only its statements.
        for (PreparedStatement statement : List.of(customer, order, item, pay, cancel)) {
            statement.close();
        }
    }
}
