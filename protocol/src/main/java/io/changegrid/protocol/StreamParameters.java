package io.changegrid.protocol;

import java.util.List;

/**
 * The query parameters of {@code GET /v1/stream} ({@link RelayApi#STREAM}), as the relay reads them
 * and consumers write them (docs/relay.md has what each means), and the keys of the {@link #FILTER}
 * document. Wire names, pinned by {@code WireNamesTest}.
 */
public final class StreamParameters {

    /** Required: the checkpoint SCN; events after it are sent, -1 for the oldest held. */
    public static final String FROM = "from";

    /** The soft limit of the response body in bytes. */
    public static final String MAX_BYTES = "maxBytes";

    /** How long to wait for new events when there are none, in milliseconds. */
    public static final String TIMEOUT_MS = "timeoutMs";

    /** {@code binary} (the buffer's frames) or {@code json} (lines). */
    public static final String FORMAT = "format";

    /** The subscription as policies: {@code {"policies": [...], "partition": p}}. */
    public static final String FILTER = "filter";

    /** Comma-separated {@code database.table} patterns ({@link TableGlob}). */
    public static final String TABLES = "tables";

    /** Partition {@code p} of {@link #PARTITIONS} by key hash. */
    public static final String PARTITION = "p";

    /** The number of partitions {@link #PARTITION} is one of. */
    public static final String PARTITIONS = "n";

    /**
     * A snapshot of the subscription, interleaved with the live stream (docs/bootstrap.md): {@link
     * SnapshotCursor#START} to begin one, or the {@link SnapshotCursor} text the last response's
     * {@link StreamResponse#SNAPSHOT} header gave, to continue it. Absent: the live stream only.
     */
    public static final String SNAPSHOT = "snapshot";

    /**
     * Parts of the transaction after {@link #FROM} the consumer already holds, as the last
     * response's {@link StreamResponse#PARTS} said: the relay sends the rest of that transaction
     * first. Absent or 0: from the transaction's start (docs/event-format.md, "Transactions in
     * parts").
     */
    public static final String PARTS = "parts";

    /** Every parameter the relay knows, in the order its error messages list them. */
    public static final List<String> ALL =
            List.of(
                    FROM,
                    MAX_BYTES,
                    TIMEOUT_MS,
                    FORMAT,
                    FILTER,
                    TABLES,
                    PARTITION,
                    PARTITIONS,
                    SNAPSHOT,
                    PARTS);

    /** {@link #FILTER} key: the policies, written as in a relay's YAML, selecting only. */
    public static final String FILTER_POLICIES = "policies";

    /** {@link #FILTER} key: the partition of every policy's partitioner wanted, -1 for all. */
    public static final String FILTER_PARTITION = "partition";

    private StreamParameters() {}
}
