package io.changegrid.gridkit.load;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Writes a {@link LoadShape} into a source, driven one of two ways: {@link #run} as fast as the
 * database takes it (the transactions built ahead by a generator thread, a bounded queue between
 * them, so generating data overlaps with the database's work and never limits it; the result tells
 * the rate the database took and the rate the generator alone could make), or {@link #startPaced}
 * at a steady rate on a {@link PacedLoad}. Both write the same transactions for the same shape.
 *
 * <p>Threading: {@link #run} on the caller's thread (JDBC) plus one generator thread it starts and
 * joins; a paced load generates and writes on the load's thread.
 */
public final class LoadGenerator {

    private static final int QUEUE = 64;

    private final WorkloadTables tables;
    private final LoadShape shape;
    private final long[][] existing;

    public LoadGenerator(WorkloadTables tables, LoadShape shape) {
        this(tables, shape, new long[tables.names().size()][]);
    }

    private LoadGenerator(WorkloadTables tables, LoadShape shape, long[][] existing) {
        this.tables = tables;
        this.shape = shape;
        this.existing = existing;
    }

    /**
     * The same load written on top of the rows the tables hold now (read on {@code connection}):
     * its updates and deletes pick among those rows too, and its inserts take ids above theirs. For
     * a live load over rows loaded before (a snapshot's source, a quickstart run again on the same
     * source), where a generator starting from empty tables would insert ids that exist.
     */
    public LoadGenerator onExistingRows(Connection connection) throws SQLException {
        long[][] held = new long[tables.names().size()][];
        try (Statement statement = connection.createStatement()) {
            for (int table = 0; table < held.length; table++) {
                held[table] = ids(statement, tables.qualified(table));
            }
        }
        return new LoadGenerator(tables, shape, held);
    }

    private static long[] ids(Statement statement, String table) throws SQLException {
        long[] ids = new long[1024];
        int count = 0;
        try (ResultSet rows = statement.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
            while (rows.next()) {
                if (count == ids.length) {
                    ids = Arrays.copyOf(ids, count * 2);
                }
                ids[count++] = rows.getLong(1);
            }
        }
        return Arrays.copyOf(ids, count);
    }

    /** Creates the tables (before the binlog range a run measures starts). */
    public void createTables(Connection connection) throws SQLException {
        tables.create(connection, new RowValues(shape.recordSize(), shape.seed()).maxText());
    }

    /**
     * Runs the load on {@code connection} as fast as it goes, reporting the row changes done so far
     * to {@code progress} after each commit.
     */
    public LoadResult run(Connection connection, LongConsumer progress)
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
                progress.accept(inserts + updates + deletes);
            }
        } finally {
            generator.interrupt();
            generator.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (generatorFailure.get() != null) {
            throw new IllegalStateException(
                    "load generator failed: database=" + tables.database(), generatorFailure.get());
        }
        return new LoadResult(inserts, updates, deletes, transactions, seconds, generatorCpu[0]);
    }

    /**
     * Starts the load on {@code connection} at {@code perSecond} transactions a second: the same
     * transactions as {@link #run}, {@link LoadShape#transactionSize()} row changes each. The
     * connection stays the caller's, to close after the load.
     */
    public PacedLoad startPaced(String name, Connection connection, int perSecond)
            throws SQLException {
        long transactions =
                (shape.records() + shape.transactionSize() - 1) / shape.transactionSize();
        return PacedLoad.start(
                name,
                transactions,
                perSecond,
                new GeneratedTransactions(
                        connection, new TransactionGenerator(tables, shape, existing), shape));
    }

    /**
     * Hands the load's transactions, in order, to {@code transaction} without a database: each as
     * the SQL statements {@link #run} executes for it (the source's dialect; {@code NOW(6)} or
     * {@code now()} for the commit time). The same transactions as {@link #run} for the same shape,
     * so a renderer of the load into another source's log (the LogMiner stand-in) gives that source
     * the very workload this one ran.
     */
    public void forEachTransaction(Consumer<List<String>> transaction) {
        TransactionGenerator generator = new TransactionGenerator(tables, shape, existing);
        for (long done = 0; done < shape.records(); ) {
            int size = GeneratedTransactions.size(shape, done);
            transaction.accept(generator.next(size).statements());
            done += size;
        }
    }

    /** The tables the load writes. */
    public WorkloadTables tables() {
        return tables;
    }

    private void generate(BlockingQueue<GeneratedTransaction> queue) throws InterruptedException {
        TransactionGenerator generator = new TransactionGenerator(tables, shape, existing);
        for (long done = 0; done < shape.records(); ) {
            int size = GeneratedTransactions.size(shape, done);
            queue.put(generator.next(size));
            done += size;
        }
        queue.put(GeneratedTransaction.END);
    }
}
