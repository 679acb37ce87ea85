package io.changegrid.appliers.batch;

import java.sql.SQLException;

/**
 * A target error from writing one table's rows, naming the table (and where it can be told the row,
 * see {@link FailedRow}); keeps the server's SQLSTATE and error code, so it classifies as the
 * server's error does.
 */
public final class RowWriteException extends SQLException implements RefusedTable {

    private static final long serialVersionUID = 1L;

    private final String table;

    RowWriteException(String table, String message, SQLException cause) {
        super(message, cause.getSQLState(), cause.getErrorCode(), cause);
        this.table = table;
    }

    @Override
    public String sourceTable() {
        return table;
    }
}
