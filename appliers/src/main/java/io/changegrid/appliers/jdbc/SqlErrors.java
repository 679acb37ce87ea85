package io.changegrid.appliers.jdbc;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;

/**
 * Which target errors are worth a retry: lost connections, deadlocks, serialization failures, lock
 * wait timeouts, a server shutting down or out of resources. Everything else (a constraint, a value
 * out of range, a syntax error) fails the same way again, so the consumer stops on it.
 */
final class SqlErrors {

    private SqlErrors() {}

    static boolean isTransient(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientException || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null
                        && (state.startsWith("08") // connection
                                || state.startsWith("40") // deadlock, serialization
                                || state.startsWith("53") // PostgreSQL: out of resources
                                || state.equals("55P03") // PostgreSQL: lock_timeout reached
                                || state.startsWith("57") // PostgreSQL: shutdown, cancel
                                || state.equals("HYT00"))) {
                    return true;
                }
                int code = sql.getErrorCode();
                if (code == 1205 || code == 1213 || code == 2006 || code == 2013) {
                    return true; // MySQL: lock wait timeout, deadlock, server gone, lost
                }
            }
        }
        return false;
    }
}
