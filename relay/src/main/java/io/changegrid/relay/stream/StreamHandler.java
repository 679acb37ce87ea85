package io.changegrid.relay.stream;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.StreamParameters;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.response.JsonResponse;
import io.changegrid.relay.security.Grant;
import io.changegrid.relay.security.SecurityHandler;
import io.changegrid.relay.snapshot.SnapshotService;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * {@code GET /v1/stream}: whole transactions after a checkpoint, long-polled (see {@link
 * StreamRequest} for the parameters and {@link StreamExchange} for the waiting). Answers 400 naming
 * a bad parameter, 410 with the oldest SCN held when the checkpoint fell out of the buffer, 503
 * naming {@code http.maxParkedPolls} when as many polls as allowed are parked already, and 503 with
 * the fetch state and error when the fetcher has stopped and nothing after the checkpoint is held,
 * so that consumers move to a relay that still fetches. Responses copy entries into at most {@link
 * ServingLimits#servingMemoryBytes()} of memory, all together.
 *
 * <p>Behind {@link SecurityHandler}, the request's {@link Grant} judges the subscription once: a
 * table named exactly that is not granted, or a predicate reading a column that is not, gets 403
 * naming it; a pattern is narrowed to the granted tables; granted columns are projected.
 */
public final class StreamHandler extends Handler.Abstract.NonBlocking {

    /** Content type of binary responses: frames back to back. */
    public static final String BINARY_TYPE = StreamExchange.BINARY_TYPE;

    /** Content type of JSON responses: one event per line. */
    public static final String JSON_TYPE = StreamExchange.JSON_TYPE;

    private final StreamServing serving;
    private final SubscriptionFilters filters;
    private final String schemaFingerprint;
    private final String sourceId;
    private final Supplier<FetcherStopped> fetcherStopped;
    private final SnapshotService snapshots;
    private final String timeline;

    /** A handler of a relay of source 0 without policies whose fetcher never stops. */
    public StreamHandler(EventBuffer buffer, SchemaRegistry registry) {
        this(buffer, registry, 0, "none", () -> null, ServingLimits.defaults());
    }

    /**
     * @param registry the schemas the buffer's frames name
     * @param sourceId the relay's {@code source.id}, which its frames carry, sent with every
     *     response
     * @param schemaFingerprint the relay's policies' {@link
     *     io.changegrid.policy.capture.CapturePlan#schemaFingerprint()}, sent with every response
     * @param fetcherStopped null while the fetcher runs, else how it stopped
     * @param limits the serving memory and the parked polls allowed
     */
    public StreamHandler(
            EventBuffer buffer,
            SchemaRegistry registry,
            int sourceId,
            String schemaFingerprint,
            Supplier<FetcherStopped> fetcherStopped,
            ServingLimits limits) {
        this(buffer, registry, sourceId, schemaFingerprint, fetcherStopped, limits, null);
    }

    /**
     * As above, serving {@code snapshot=} requests (docs/bootstrap.md) with {@code snapshots}, or
     * refusing them with 400 when null.
     */
    public StreamHandler(
            EventBuffer buffer,
            SchemaRegistry registry,
            int sourceId,
            String schemaFingerprint,
            Supplier<FetcherStopped> fetcherStopped,
            ServingLimits limits,
            SnapshotService snapshots) {
        this(
                buffer,
                registry,
                sourceId,
                schemaFingerprint,
                fetcherStopped,
                limits,
                snapshots,
                () -> -1);
    }

    /**
     * As above, sending {@code sourceTimeMillis} (the source time of the newest transaction or
     * heartbeat the fetcher received, -1 before the first) as {@link StreamResponse#SOURCE_TIME}
     * with every answer, read when the answer is sent, so that consumers can tell a relay whose
     * fetcher no longer hears from its source.
     */
    public StreamHandler(
            EventBuffer buffer,
            SchemaRegistry registry,
            int sourceId,
            String schemaFingerprint,
            Supplier<FetcherStopped> fetcherStopped,
            ServingLimits limits,
            SnapshotService snapshots,
            LongSupplier sourceTimeMillis) {
        this(
                buffer,
                registry,
                sourceId,
                schemaFingerprint,
                fetcherStopped,
                limits,
                snapshots,
                sourceTimeMillis,
                "");
    }

    /**
     * As above, sending {@code timeline} (the fetcher's {@link
     * io.changegrid.fetchers.Fetcher#timeline()}, empty when it names none) as {@link
     * StreamResponse#TIMELINE} with every answer, so that a consumer never continues a checkpoint
     * on a timeline whose SCNs mean other transactions.
     */
    public StreamHandler(
            EventBuffer buffer,
            SchemaRegistry registry,
            int sourceId,
            String schemaFingerprint,
            Supplier<FetcherStopped> fetcherStopped,
            ServingLimits limits,
            SnapshotService snapshots,
            LongSupplier sourceTimeMillis,
            String timeline) {
        this.timeline = timeline;
        this.snapshots = snapshots;
        buffer.allowPins(limits.zeroCopySegments()); // responses sent in place: StreamExchange
        this.serving =
                new StreamServing(
                        buffer,
                        registry,
                        new ServingMemory(limits.servingMemoryBytes()),
                        new ParkedPolls(limits.maxParkedPolls()),
                        sourceTimeMillis,
                        new ServingMeters(),
                        limits.edgeLingerNanos());
        this.filters = new SubscriptionFilters(registry);
        this.sourceId = Integer.toString(sourceId);
        this.schemaFingerprint = schemaFingerprint;
        this.fetcherStopped = fetcherStopped;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (JsonResponse.rejectUnlessGet(request, response, callback)) {
            return true;
        }
        response.getHeaders().put(StreamResponse.TIMELINE, timeline);
        // On every answer; the exchanges put it again when they send, after a long poll.
        response.getHeaders()
                .put(
                        StreamResponse.SOURCE_TIME,
                        Long.toString(serving.sourceTimeMillis().getAsLong()));
        StreamRequest params;
        Fields query = Request.extractQueryParameters(request);
        try {
            params = StreamRequest.parse(query, filters);
        } catch (BadRequestException e) {
            JsonResponse.error(response, callback, 400, e.getMessage());
            return true;
        }
        // Authorization is decided here, once per request; the stream then only applies it.
        Grant grant = SecurityHandler.grant(request);
        String refusal = grant.refusal(params.plan(), serving.registry().latestVersions());
        if (refusal != null) {
            JsonResponse.error(response, callback, 403, refusal);
            return true;
        }
        FetcherStopped stopped = fetcherStopped.get();
        if (stopped != null && serving.buffer().newestScn() <= params.from()) {
            notFetching(response, callback, params.from(), stopped);
            return true;
        }
        response.getHeaders().put(StreamResponse.SCHEMAS, schemaFingerprint);
        response.getHeaders().put(StreamResponse.SOURCE_ID, sourceId);
        String snapshot = query.getValue(StreamParameters.SNAPSHOT);
        if (snapshot != null) {
            if (snapshots == null) {
                JsonResponse.error(
                        response,
                        callback,
                        400,
                        "bad parameter: "
                                + StreamParameters.SNAPSHOT
                                + "="
                                + snapshot
                                + ": this relay's source offers no snapshots");
                return true;
            }
            if (!grant.isEverything()) {
                // Chunks are read from the source's tables as the subscription names them, not
                // through the grant's narrowing and projection: refused until they are.
                JsonResponse.error(
                        response,
                        callback,
                        403,
                        "snapshot refused: principal="
                                + grant.principal()
                                + ": snapshots are served only to principals granted every"
                                + " table and column (docs/security.md)");
                return true;
            }
            new SnapshotExchange(request, response, callback, serving, params, snapshot, snapshots)
                    .start();
            return true;
        }
        new StreamExchange(request, response, callback, serving, params, grant).start();
        return true;
    }

    /** What this relay served, per principal; bind it to the relay's registry. */
    public ServingMeters servingMeters() {
        return serving.meters();
    }

    /** What serves {@code snapshot=} requests, or null when this relay serves none. */
    public SnapshotService snapshots() {
        return snapshots;
    }

    /** Requests parked now, waiting for events or for serving memory. */
    public int parkedPolls() {
        return serving.parkedPolls().count();
    }

    /** Bytes that responses' copies hold now, out of the serving memory. */
    public long servingMemoryInUse() {
        return serving.memory().inUse();
    }

    /** Requests waiting for serving memory now. */
    public int servingMemoryWaiting() {
        return serving.memory().waiting();
    }

    /** Segments that responses are being sent from in place now. */
    public int segmentsPinned() {
        return serving.buffer().segmentsPinned();
    }

    /** Segments the writer swapped out of the buffer since start because responses held them. */
    public long segmentsSwapped() {
        return serving.buffer().segmentsSwappedForReaders();
    }

    private void notFetching(
            Response response, Callback callback, long from, FetcherStopped stopped) {
        long newest = serving.buffer().newestScn();
        JsonResponse.send(
                response,
                callback,
                StreamResponse.NOT_FETCHING,
                json -> {
                    json.writeStringField(
                            "error",
                            "relay not fetching and holds nothing after the checkpoint: from="
                                    + from
                                    + ", newestScn="
                                    + newest
                                    + ", fetchState="
                                    + stopped.state()
                                    + ", fetchError="
                                    + stopped.error());
                    json.writeStringField(StreamResponse.FETCH_STATE_FIELD, stopped.state());
                    json.writeStringField(StreamResponse.FETCH_ERROR_FIELD, stopped.error());
                });
    }
}
