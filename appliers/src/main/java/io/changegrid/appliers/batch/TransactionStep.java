package io.changegrid.appliers.batch;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Statements a lane runs in its next commit's transaction, after its rows and before its checkpoint
 * row: what must commit exactly when the checkpoint does (a dead-letter record, the deletion of
 * replayed ones).
 */
@FunctionalInterface
public interface TransactionStep {

    /** Runs the statements on the lane's connection, inside its open transaction. */
    void run(Connection connection) throws SQLException;
}
