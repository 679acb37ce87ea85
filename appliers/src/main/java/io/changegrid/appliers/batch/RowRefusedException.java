package io.changegrid.appliers.batch;

/**
 * A row change the target cannot take: a value without a form in its target column, named with the
 * table, the row's key and the SCN of the source transaction that changed it. The applier stops on
 * it (nothing is skipped); the cause says what was refused.
 */
public final class RowRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RowRefusedException(String where, RuntimeException cause) {
        super("target cannot take a row: " + where + ": " + cause.getMessage(), cause);
    }
}
