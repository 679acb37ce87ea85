package io.changegrid.gridkit.logminer;

import java.time.LocalDateTime;

/**
 * One row of {@code V$LOGMNR_CONTENTS} as the stand-in stores it.
 *
 * @param xid 8 bytes: undo segment (2), slot (2), sequence (4), as Oracle's RAW(8) XID
 * @param rsId the redo record's id, e.g. {@code 0x000001.00000a1b.0010 }
 */
public record RedoRow(
        long scn,
        int operationCode,
        String operation,
        String sqlRedo,
        LocalDateTime timestamp,
        byte[] xid,
        boolean csf,
        String owner,
        String table,
        String rowId,
        boolean rollback,
        long ssn,
        int thread,
        String rsId) {

    public static final int INSERT = 1;
    public static final int DELETE = 2;
    public static final int UPDATE = 3;
    public static final int DDL = 5;
    public static final int START = 6;
    public static final int COMMIT = 7;
    public static final int ROLLBACK = 36;
}
