package io.changegrid.deploy.local;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small shop workload for the local grid: customers, orders and order items, in transactions that
 * insert, update and delete across the three tables, at a steady rate. Runs on its own thread until
 * stopped or until it has committed {@code transactions}.
 */
final class DemoLoad implements Runnable {

    private final Connection connection;
    private final long transactions;
    private final int perSecond;
    private final Random random = new Random(7);
    private final AtomicLong committed = new AtomicLong();
    private final AtomicLong rows = new AtomicLong();
    private volatile boolean stopped;
    private volatile Exception failure;

    DemoLoad(Connection connection, long transactions, int perSecond) {
        this.connection = connection;
        this.transactions = transactions;
        this.perSecond = perSecond;
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

    @Override
    public void run() {
        long intervalNanos = 1_000_000_000L / perSecond;
        long next = System.nanoTime();
        try (PreparedStatement customer =
                        connection.prepareStatement(
                                "INSERT INTO shop.customers VALUES (?, ?, ?, CURRENT_DATE) ON DUPLICATE KEY UPDATE name = VALUES(name)");
                PreparedStatement order =
                        connection.prepareStatement(
                                "INSERT INTO shop.orders VALUES (?, ?, ?, 'new', NOW(6))");
                PreparedStatement item =
                        connection.prepareStatement(
                                "INSERT INTO shop.order_items VALUES (?, ?, ?, ?)");
                PreparedStatement pay =
                        connection.prepareStatement(
                                "UPDATE shop.orders SET status = 'paid' WHERE id = ?");
                PreparedStatement cancel =
                        connection.prepareStatement(
                                "DELETE FROM shop.order_items WHERE order_id = ? AND line = 1")) {
            connection.setAutoCommit(false);
            for (long n = 1; !stopped && n <= transactions; n++) {
                int customerId = 1 + random.nextInt(500);
                customer.setInt(1, customerId);
                customer.setString(2, "customer " + customerId);
                customer.setString(3, "c" + customerId + "@example.com");
                customer.executeUpdate();
                order.setLong(1, n);
                order.setInt(2, customerId);
                order.setBigDecimal(
                        3, java.math.BigDecimal.valueOf(100 + random.nextInt(100_000), 2));
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
                committed.incrementAndGet();
                rows.addAndGet(changed);
                next += intervalNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
        } catch (SQLException e) {
            failure = e;
        }
    }

    void stop() {
        stopped = true;
    }

    long committedTransactions() {
        return committed.get();
    }

    long committedRows() {
        return rows.get();
    }

    Exception failure() {
        return failure;
    }
}
