package io.changegrid.relay.http;

/**
 * Whether a relay is healthy, for {@code /v1/health}.
 *
 * @param fetchState RUNNING, CATCHING_UP, STOPPED, FAILED, or WAITING_FOR_SOURCE while the relay
 *     starts and cannot reach its source yet
 * @param problem why the relay is unhealthy, or null while it is healthy or catching up
 * @param fetchPosition while catching up: the source position the fetcher has read to, else null
 * @param lagScn while catching up: how far the source is ahead, in SCN units, or -1
 * @param lagMillis while catching up: time since the source commit of the last published entry, or
 *     -1
 */
public record RelayHealth(
        String fetchState, String problem, String fetchPosition, long lagScn, long lagMillis) {

    /** The fetch state of a relay that has not yet read up to its source's end since it started. */
    public static final String CATCHING_UP = "CATCHING_UP";

    /** The fetch state of a relay that started while its source cannot be reached, and waits. */
    public static final String WAITING_FOR_SOURCE = "WAITING_FOR_SOURCE";

    /** A relay that is not catching up. */
    public RelayHealth(String fetchState, String problem) {
        this(fetchState, problem, null, -1, -1);
    }

    /** Whether the relay is still reading what its source logged before it (re)started. */
    public boolean catchingUp() {
        return problem == null && CATCHING_UP.equals(fetchState);
    }
}
