package io.changegrid.fetchers.logminer.mining;

import io.changegrid.fetchers.logminer.assembly.ContentsRow;
import io.changegrid.fetchers.logminer.assembly.OperationCode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.HexFormat;
import java.util.List;

/**
 * The one {@code V$LOGMNR_CONTENTS} query of a window: rows of {@code (lo, hi]} that are
 * transaction control (START, COMMIT, ROLLBACK: of every transaction, so commits at one SCN rank
 * alike on every relay) or row changes, DDL and LOB/unsupported operations of the captured owners
 * (the fetcher picks the captured tables from them, so a table created later is seen). No ORDER BY:
 * the view's order is the redo's, which CSF pieces and the assembly rely on.
 *
 * <p>Unquoted names fold to upper case in Oracle and to lower case in PostgreSQL, so the stand-in
 * serves {@code v$logmnr_contents}; {@code THREAD#}, {@code TIMESTAMP} and {@code ROLLBACK} are
 * quoted, as PostgreSQL needs, which Oracle reads as the same upper-case names.
 */
public final class ContentsQuery {

    static final String SELECT =
            "SELECT SCN, SQL_REDO, OPERATION_CODE, \"TIMESTAMP\", XID, CSF, SEG_OWNER, TABLE_NAME, ROW_ID,"
                    + " \"ROLLBACK\", INFO, SSN, \"THREAD#\", RS_ID FROM V$LOGMNR_CONTENTS"
                    + " WHERE SCN > ? AND SCN <= ? AND (OPERATION_CODE IN ("
                    + OperationCode.START
                    + ", "
                    + OperationCode.COMMIT
                    + ", "
                    + OperationCode.ROLLBACK
                    + ") OR (OPERATION_CODE IN ("
                    + OperationCode.INSERT
                    + ", "
                    + OperationCode.DELETE
                    + ", "
                    + OperationCode.UPDATE
                    + ", "
                    + OperationCode.DDL
                    + ", "
                    + OperationCode.SELECT_LOB_LOCATOR
                    + ", "
                    + OperationCode.LOB_WRITE
                    + ", "
                    + OperationCode.LOB_TRIM
                    + ", "
                    + OperationCode.LOB_ERASE
                    + ", "
                    + OperationCode.UNSUPPORTED
                    + ") AND SEG_OWNER IN (";

    /** Receives a window's rows. */
    @FunctionalInterface
    public interface RowHandler {
        void row(ContentsRow row) throws InterruptedException;
    }

    private final String sql;
    private final List<String> owners;

    /**
     * @param owners the owners of the captured tables, at least one
     */
    public ContentsQuery(List<String> owners) {
        if (owners.isEmpty()) {
            throw new IllegalArgumentException("no captured owner to mine");
        }
        this.owners = List.copyOf(owners);
        this.sql = text(owners.size());
    }

    /** The query text for {@code owners} owners. */
    static String text(int owners) {
        return SELECT + String.join(", ", java.util.Collections.nCopies(owners, "?")) + ")))";
    }

    public String sql() {
        return sql;
    }

    /**
     * Reads the rows of {@code (lo, hi]} in the view's order.
     *
     * @return the number of rows read
     */
    public int read(Connection connection, long lo, long hi, int fetchSize, RowHandler handler)
            throws SQLException, InterruptedException {
        int count = 0;
        try (var statement = connection.prepareStatement(sql)) {
            statement.setFetchSize(fetchSize);
            statement.setLong(1, lo);
            statement.setLong(2, hi);
            for (int i = 0; i < owners.size(); i++) {
                statement.setString(3 + i, owners.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    handler.row(row(rows));
                    count++;
                }
            }
        }
        return count;
    }

    private static ContentsRow row(ResultSet rows) throws SQLException {
        Timestamp timestamp = rows.getTimestamp(4);
        byte[] xid = rows.getBytes(5);
        return new ContentsRow(
                rows.getLong(1),
                rows.getInt(3),
                rows.getString(2),
                timestamp == null ? 0 : timestamp.getTime(),
                xid == null ? "" : HexFormat.of().withUpperCase().formatHex(xid),
                rows.getInt(6) == 1,
                rows.getString(7),
                rows.getString(8),
                rows.getString(9),
                rows.getInt(10) == 1,
                rows.getString(11),
                rows.getLong(12),
                rows.getInt(13),
                rows.getString(14));
    }
}
