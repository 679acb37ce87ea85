package io.changegrid.events.json;

/** JSON that is not a well-formed event or schema; the message names the field and the text. */
public final class MalformedJsonException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MalformedJsonException(String message) {
        super(message);
    }

    public MalformedJsonException(String message, Throwable cause) {
        super(message, cause);
    }
}
