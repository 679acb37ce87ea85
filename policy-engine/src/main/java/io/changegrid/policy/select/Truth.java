package io.changegrid.policy.select;

/** SQL's three truth values; a row is selected only when its predicate is {@link #TRUE}. */
public enum Truth {
    TRUE,
    FALSE,
    UNKNOWN;

    static Truth of(boolean value) {
        return value ? TRUE : FALSE;
    }

    Truth and(Truth other) {
        if (this == FALSE || other == FALSE) {
            return FALSE;
        }
        return this == TRUE && other == TRUE ? TRUE : UNKNOWN;
    }

    Truth or(Truth other) {
        if (this == TRUE || other == TRUE) {
            return TRUE;
        }
        return this == FALSE && other == FALSE ? FALSE : UNKNOWN;
    }

    Truth not() {
        return this == UNKNOWN ? UNKNOWN : of(this == FALSE);
    }
}
