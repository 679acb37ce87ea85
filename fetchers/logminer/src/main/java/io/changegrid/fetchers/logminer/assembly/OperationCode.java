package io.changegrid.fetchers.logminer.assembly;

/**
 * {@code V$LOGMNR_CONTENTS.OPERATION_CODE} values, as Oracle's reference documents them; these
 * numbers never change.
 */
public final class OperationCode {
    public static final int INSERT = 1;
    public static final int DELETE = 2;
    public static final int UPDATE = 3;
    public static final int DDL = 5;
    public static final int START = 6;
    public static final int COMMIT = 7;
    public static final int SELECT_LOB_LOCATOR = 9;
    public static final int LOB_WRITE = 10;
    public static final int LOB_TRIM = 11;
    public static final int LOB_ERASE = 29;
    public static final int ROLLBACK = 36;
    public static final int UNSUPPORTED = 255;

    private OperationCode() {}
}
