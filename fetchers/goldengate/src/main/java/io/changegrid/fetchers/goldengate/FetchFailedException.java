package io.changegrid.fetchers.goldengate;

/** What retrying cannot fix: the message says what happened, where, and what to do. */
public final class FetchFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FetchFailedException(String message) {
        super(message);
    }

    public FetchFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
