package io.changegrid.fetchers.mysql;

/**
 * The fetcher stopped for a reason that retrying will not fix: a purged binlog position, a source
 * that is not set up for row-based capture, DDL it cannot understand on a captured table. The
 * message says what happened, where in the binlog, and what the operator can do.
 */
public class FetchFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public FetchFailedException(String message) {
        super(message);
    }

    public FetchFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
