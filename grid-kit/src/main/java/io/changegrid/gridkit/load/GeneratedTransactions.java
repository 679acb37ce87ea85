package io.changegrid.gridkit.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The paced way to write a {@link LoadShape}: each {@link PacedLoad} transaction is the generator's
 * next one, generated and written on the load thread (at a steady rate the generator is far ahead
 * of what it needs to be, so no queue).
 *
 * <p>Threading: the load thread alone uses it.
 */
final class GeneratedTransactions implements PacedLoad.Transaction {

    private final Connection connection;
    private final TransactionGenerator generator;
    private final LoadShape shape;
    private final Statement statement;
    private long done;

    GeneratedTransactions(Connection connection, TransactionGenerator generator, LoadShape shape)
            throws SQLException {
        this.connection = connection;
        this.generator = generator;
        this.shape = shape;
        this.statement = connection.createStatement();
        connection.setAutoCommit(false);
    }

    /** Row changes of the transaction after {@code done} row changes: the last one may be short. */
    static int size(LoadShape shape, long done) {
        return (int) Math.min(shape.transactionSize(), shape.records() - done);
    }

    @Override
    public long run(long number) throws SQLException {
        GeneratedTransaction transaction = generator.next(size(shape, done));
        for (String sql : transaction.statements()) {
            statement.execute(sql);
        }
        connection.commit();
        done += transaction.rowChanges();
        return transaction.rowChanges();
    }

    @Override
    public void close() throws SQLException {
        // The connection is the caller's; only the statement is the load's.
        statement.close();
    }
}
