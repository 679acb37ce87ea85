package io.changegrid.protocol;

/**
 * What a response of {@code GET /v1/stream} ({@link RelayApi#STREAM}) says besides its body of
 * events: its headers, and the answer to a checkpoint the relay no longer holds. Wire names, pinned
 * by {@code WireNamesTest}.
 */
public final class StreamResponse {

    /** The status of a checkpoint older than the relay's buffer: the consumer must bootstrap. */
    public static final int TOO_OLD = 410;

    /**
     * The status when the relay's fetcher has stopped and it holds nothing after the checkpoint:
     * the consumer asks another relay.
     */
    public static final int NOT_FETCHING = 503;

    /** The field of a {@link #NOT_FETCHING} answer's JSON body naming the fetch state. */
    public static final String FETCH_STATE_FIELD = "fetchState";

    /** The field of a {@link #NOT_FETCHING} answer's JSON body with the fetcher's error. */
    public static final String FETCH_ERROR_FIELD = "fetchError";

    /** The field of a {@link #TOO_OLD} answer's JSON body naming the oldest SCN held. */
    public static final String OLDEST_SCN_FIELD = "oldestScn";

    /** The field of a {@link #TOO_OLD} answer's JSON body naming the checkpoint asked for. */
    public static final String FROM_FIELD = "from";

    /** The checkpoint after the response: the SCN to ask {@code from} next. */
    public static final String LAST_SCN = "X-Changegrid-Last-Scn";

    /**
     * Parts of the transaction after {@link #LAST_SCN} the consumer holds after this response (the
     * request's {@link StreamParameters#PARTS} and those in the body), when the body ends inside a
     * transaction published in parts; absent otherwise. The consumer asks on with {@code
     * from=LAST_SCN&parts=PARTS}, and checkpoints nothing of that transaction until its last part.
     */
    public static final String PARTS = "X-Changegrid-Parts";

    /** The oldest SCN the relay holds. */
    public static final String OLDEST_SCN = "X-Changegrid-Oldest-Scn";

    /** The newest SCN the relay holds. */
    public static final String NEWEST_SCN = "X-Changegrid-Newest-Scn";

    /**
     * The id of the source the relay reads ({@code source.id}), which every frame of the body
     * carries too: a consumer never takes one source's SCNs for another's.
     */
    public static final String SOURCE_ID = "X-Changegrid-Source-Id";

    /**
     * The source time of the newest transaction or heartbeat the relay received from its source, in
     * milliseconds since the epoch, or -1 before the first: sent with every answer. A consumer
     * watches it change, comparing it only with earlier values of the same relay (relays' and
     * consumers' clocks differ), and leaves a relay whose value stopped changing for {@code
     * fetch.stallTimeout}: its fetcher lives but hears nothing from the source (docs/consumer.md).
     */
    public static final String SOURCE_TIME = "X-Changegrid-Source-Time";

    /**
     * The identity of the timeline the relay's SCNs are on (docs/event-format.md, "The timeline"),
     * sent with every answer: relays naming the same timeline give the same SCN to the same
     * transaction; SCNs of different timelines cannot be compared. A consumer keeps it with its
     * checkpoint and stops rather than continue a checkpoint on another timeline. Printable ASCII;
     * empty when the relay's source cannot name its timeline.
     */
    public static final String TIMELINE = "X-Changegrid-Timeline";

    /**
     * A fingerprint of the schemas the relay serves: a change means a restarted relay with other
     * policies, whose table ids and versions a consumer must not decode with cached schemas.
     */
    public static final String SCHEMAS = "X-Changegrid-Schemas";

    /**
     * The snapshot cursor after a response to a {@link StreamParameters#SNAPSHOT} request: the
     * {@link SnapshotCursor} text to send next, or {@link SnapshotCursor#COMPLETE} once the last
     * chunk was sent. It belongs to the response's snapshot chunk, the last transaction of the
     * body; a response without a chunk echoes the cursor asked with.
     */
    public static final String SNAPSHOT = "X-Changegrid-Snapshot";

    private StreamResponse() {}
}
