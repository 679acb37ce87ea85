package io.changegrid.fetchers;

/**
 * {@link FetcherProvider#open} could not reach the source, for a reason that passes by itself: the
 * connection was refused, the host name does not resolve (yet), the server is starting or shutting
 * down. The relay waits and opens again with backoff, reporting that it waits for its source
 * (docs/relay.md, "Starting while the source is down"), instead of exiting.
 *
 * <p>What waiting cannot fix (wrong credentials, missing privileges, a binlog format other than
 * ROW, a bad setting) must not be thrown as this: it fails the start with its own clear error.
 */
public final class SourceUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what could not be reached and why, e.g. {@code source unreachable:
     *     address=db1:3306, error=Connection refused}
     */
    public SourceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
