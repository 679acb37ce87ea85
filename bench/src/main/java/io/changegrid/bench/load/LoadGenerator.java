package io.changegrid.bench.load;

import io.changegrid.bench.harness.ProgressLine;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes a {@link LoadShape} into a source: creates the tables, then runs the transactions a
 * generator thread builds ahead (a bounded queue between them), so generating data overlaps with
 * the database's work and never limits it. Reports its own rate: the rate the database took, and
 * the rate the generator alone could make.
 *
 * <p>Threading: {@link #run} on the caller's thread (JDBC) plus one generator thread it starts and
 * joins.
 */
public final class LoadGenerator {

    private static final int QUEUE = 64;

    private final BenchTables tables;
    private final LoadShape shape;

    public LoadGenerator(BenchTables tables, LoadShape shape) {
        this.tables = tables;
        this.shape = shape;
    }

    /** Creates the tables (before the binlog range a run measures starts). */
    public void createTables(Connection connection) throws SQLException {
        tables.create(connection, new RowValues(shape.recordSize(), shape.seed()).maxText());
    }

    /** Runs the load on {@code connection}, reporting row changes done to {@code progress}. */
    public LoadResult run(Connection connection, ProgressLine progress)
            throws SQLException, InterruptedException {
        BlockingQueue<GeneratedTransaction> queue = new ArrayBlockingQueue<>(QUEUE);
        AtomicReference<Throwable> generatorFailure = new AtomicReference<>();
        double[] generatorCpu = new double[1];
        Thread generator =
                new Thread(
                        () -> {
                            try {
                                generate(queue);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            } catch (RuntimeException | Error e) {
                                generatorFailure.set(e);
                                queue.clear();
                                queue.offer(GeneratedTransaction.END);
                            } finally {
                                generatorCpu[0] =
                                        ManagementFactory.getThreadMXBean()
                                                        .getCurrentThreadCpuTime()
                                                / 1e9;
                            }
                        },
                        "load-generator");
        generator.setDaemon(true);
        generator.start();
        connection.setAutoCommit(false);
        long inserts = 0;
        long updates = 0;
        long deletes = 0;
        long transactions = 0;
        long start = System.nanoTime();
        try (Statement statement = connection.createStatement()) {
            for (GeneratedTransaction transaction = queue.take();
                    transaction != GeneratedTransaction.END;
                    transaction = queue.take()) {
                for (String sql : transaction.statements()) {
                    statement.execute(sql);
                }
                connection.commit();
                inserts += transaction.inserts();
                updates += transaction.updates();
                deletes += transaction.deletes();
                transactions++;
                progress.report(inserts + updates + deletes);
            }
        } finally {
            generator.interrupt();
            generator.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (generatorFailure.get() != null) {
            throw new IllegalStateException("load generator failed", generatorFailure.get());
        }
        progress.end();
        LoadResult result =
                new LoadResult(inserts, updates, deletes, transactions, seconds, generatorCpu[0]);
        System.err.printf(
                Locale.ROOT,
                "load: %,d row changes (%,d inserts, %,d updates, %,d deletes) in %,d transactions,"
                        + " %.1f s: %,.0f rows/s into the source; the generator alone: %,.0f rows/s"
                        + " of one core%n",
                result.events(),
                inserts,
                updates,
                deletes,
                transactions,
                seconds,
                result.eventsPerSecond(),
                result.generatorEventsPerSecond());
        return result;
    }

    private void generate(BlockingQueue<GeneratedTransaction> queue) throws InterruptedException {
        TransactionGenerator generator = new TransactionGenerator(tables, shape);
        long left = shape.records();
        while (left > 0) {
            int size = (int) Math.min(shape.transactionSize(), left);
            queue.put(generator.next(size));
            left -= size;
        }
        queue.put(GeneratedTransaction.END);
    }
}
