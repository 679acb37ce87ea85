package io.changegrid.appliers.typemap;

/**
 * One value has no form in its target column although the column's type maps (a zero date or a NUL
 * character into PostgreSQL). The applier stops rather than write something else.
 */
public final class ValueNotRepresentableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ValueNotRepresentableException(String what, Object value) {
        super("value has no form in the target column: " + what + ", value=" + value);
    }
}
