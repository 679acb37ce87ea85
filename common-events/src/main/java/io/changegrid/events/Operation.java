package io.changegrid.events;

/**
 * What an event says happened. Row changes carry row images; the others are control events that
 * structure the stream.
 */
public enum Operation {
    /** A row was inserted: after image only. */
    INSERT(1),
    /** A row was updated: before and after images. */
    UPDATE(2),
    /** A row was deleted: before image only. */
    DELETE(3),
    /**
     * A table's schema changed: names the new schema version and carries the DDL statement. Always
     * its own transaction.
     */
    SCHEMA_CHANGE(4),
    /**
     * The source is alive and nothing was committed up to this SCN; lets consumers see progress and
     * lag on an idle source. Outside any transaction.
     */
    HEARTBEAT(5),
    /**
     * Closes a transaction: carries the transaction id and, as its index, the number of events in
     * the transaction. A reader has a whole transaction once it has seen this frame.
     */
    END_OF_TRANSACTION(6);

    private static final Operation[] BY_CODE = new Operation[7];

    static {
        for (Operation op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final int code;

    Operation(int code) {
        this.code = code;
    }

    /** The stable code written into frames. */
    public int code() {
        return code;
    }

    /** True for INSERT, UPDATE and DELETE. */
    public boolean isRowChange() {
        return code <= DELETE.code;
    }

    /** The operation with this code, or {@code null} if there is none; never throws. */
    public static Operation fromCodeOrNull(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
