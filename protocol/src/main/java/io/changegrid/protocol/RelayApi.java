package io.changegrid.protocol;

/**
 * The paths of a relay's HTTP API (docs/relay.md), and the parameters of the schema lookup. Names
 * here are wire names: a relay and its clients must agree on them, so {@code WireNamesTest} pins
 * them.
 */
public final class RelayApi {

    /**
     * {@code GET}: the change stream, long-polled ({@link StreamParameters}, {@link
     * StreamResponse}).
     */
    public static final String STREAM = "/v1/stream";

    /**
     * {@code GET}: every schema version served, or one ({@link #TABLE_ID} and {@link #VERSION}).
     */
    public static final String SCHEMAS = "/v1/schemas";

    /** {@code GET}: the relay's state as JSON; also the status path of a consumer group member. */
    public static final String STATUS = "/v1/status";

    /** {@code GET}: 200 while the relay serves. */
    public static final String HEALTH = "/v1/health";

    /** {@code GET}: metrics in the Prometheus text format. */
    public static final String METRICS = "/metrics";

    /**
     * {@code POST}: stops the relay's snapshot chunk reads until {@link #SNAPSHOT_RESUME}; live
     * streaming goes on (docs/bootstrap.md). Needs the operations role.
     */
    public static final String SNAPSHOT_PAUSE = "/v1/snapshot/pause";

    /** {@code POST}: lets the relay's snapshot chunk reads go on. Needs the operations role. */
    public static final String SNAPSHOT_RESUME = "/v1/snapshot/resume";

    /** {@link #SCHEMAS} parameter: the table id binary frames carry. */
    public static final String TABLE_ID = "tableId";

    /** {@link #SCHEMAS} parameter: the schema version binary frames carry. */
    public static final String VERSION = "version";

    /** Whether {@code path} is an operations endpoint: status, metrics and snapshot control. */
    public static boolean operations(String path) {
        return STATUS.equals(path)
                || METRICS.equals(path)
                || SNAPSHOT_PAUSE.equals(path)
                || SNAPSHOT_RESUME.equals(path);
    }

    private RelayApi() {}
}
