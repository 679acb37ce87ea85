package io.changegrid.events.schema;

/** A table or schema version that the registry does not hold was asked for. */
public final class UnknownSchemaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnknownSchemaException(String message) {
        super(message);
    }
}
