package io.changegrid.fetchers.logminer.assembly;

/**
 * One row of {@code V$LOGMNR_CONTENTS}, the columns the fetcher reads.
 *
 * @param scn {@code SCN}
 * @param operationCode {@code OPERATION_CODE} (see {@link OperationCode})
 * @param sqlRedo {@code SQL_REDO}, one piece of it when {@code csf}
 * @param timestampMillis {@code TIMESTAMP}, milliseconds since the epoch
 * @param xid {@code XID} in hex
 * @param csf {@code CSF = 1}: {@code SQL_REDO} continues in the next row
 * @param owner {@code SEG_OWNER}, or null
 * @param table {@code TABLE_NAME}, or null
 * @param rowId {@code ROW_ID}
 * @param rollback {@code ROLLBACK = 1}: the row undoes an earlier one (savepoint rollback)
 * @param info {@code INFO}
 * @param ssn {@code SSN}
 * @param thread {@code THREAD#}
 * @param rsId {@code RS_ID}, the redo record's id
 */
public record ContentsRow(
        long scn,
        int operationCode,
        String sqlRedo,
        long timestampMillis,
        String xid,
        boolean csf,
        String owner,
        String table,
        String rowId,
        boolean rollback,
        String info,
        long ssn,
        int thread,
        String rsId) {

    /** This row with {@code SQL_REDO} replaced (the pieces of a CSF row joined). */
    ContentsRow withSqlRedo(String joined) {
        return new ContentsRow(
                scn,
                operationCode,
                joined,
                timestampMillis,
                xid,
                false,
                owner,
                table,
                rowId,
                rollback,
                info,
                ssn,
                thread,
                rsId);
    }
}
