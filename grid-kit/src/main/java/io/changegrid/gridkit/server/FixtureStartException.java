package io.changegrid.gridkit.server;

/**
 * A private server (of a test, the quickstart or bench) could not be started; the message says
 * which, where, and what its own log said.
 *
 * <p>Distinct from {@link IllegalArgumentException} (bad fixture configuration) so that a test
 * report shows at a glance that the environment, not the code under test, failed.
 */
public final class FixtureStartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and where, e.g. {@code mariadbd exited during start: port=...}
     */
    public FixtureStartException(String message) {
        super(message);
    }

    /**
     * @param message what failed and where
     * @param cause the underlying failure
     */
    public FixtureStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
