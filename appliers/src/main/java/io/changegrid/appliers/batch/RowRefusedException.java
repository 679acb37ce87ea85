package io.changegrid.appliers.batch;

/**
 * A row change the target cannot take: a value without a form in its target column, named with the
 * table, the row's key and the SCN of the source transaction that changed it. The applier stops on
 * it (nothing is skipped) or, with {@code apply.refusedRows=park}, parks the table; the cause says
 * what was refused.
 */
public final class RowRefusedException extends RuntimeException implements RefusedTable {

    private static final long serialVersionUID = 1L;

    private final String table;

    RowRefusedException(String table, String where, RuntimeException cause) {
        super("target cannot take a row: " + where + ": " + cause.getMessage(), cause);
        this.table = table;
    }

    @Override
    public String sourceTable() {
        return table;
    }
}
