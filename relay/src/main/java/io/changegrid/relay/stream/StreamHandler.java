package io.changegrid.relay.stream;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.response.JsonResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /v1/stream}: whole transactions after a checkpoint, long-polled (see {@link
 * StreamRequest} for the parameters and {@link StreamExchange} for the waiting). Answers 400 naming
 * a bad parameter, 410 with the oldest SCN held when the checkpoint fell out of the buffer, 503
 * naming {@code http.maxParkedPolls} when as many polls as allowed are parked already. Responses
 * copy entries into at most {@link ServingLimits#servingMemoryBytes()} of memory, all together.
 */
public final class StreamHandler extends Handler.Abstract.NonBlocking {

    /** Content type of binary responses: frames back to back. */
    public static final String BINARY_TYPE = StreamExchange.BINARY_TYPE;

    /** Content type of JSON responses: one event per line. */
    public static final String JSON_TYPE = StreamExchange.JSON_TYPE;

    private final StreamServing serving;
    private final SubscriptionFilters filters;
    private final String schemaFingerprint;

    /** A handler of a relay without policies. */
    public StreamHandler(EventBuffer buffer, SchemaRegistry registry) {
        this(buffer, registry, "none", ServingLimits.defaults());
    }

    /**
     * @param registry the schemas the buffer's frames name
     * @param schemaFingerprint the relay's policies' {@link
     *     io.changegrid.policy.capture.CapturePlan#schemaFingerprint()}, sent with every response
     * @param limits the serving memory and the parked polls allowed
     */
    public StreamHandler(
            EventBuffer buffer,
            SchemaRegistry registry,
            String schemaFingerprint,
            ServingLimits limits) {
        this.serving =
                new StreamServing(
                        buffer,
                        registry,
                        new ServingMemory(limits.servingMemoryBytes()),
                        new ParkedPolls(limits.maxParkedPolls()));
        this.filters = new SubscriptionFilters(registry);
        this.schemaFingerprint = schemaFingerprint;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (JsonResponse.rejectUnlessGet(request, response, callback)) {
            return true;
        }
        StreamRequest params;
        try {
            params = StreamRequest.parse(Request.extractQueryParameters(request), filters);
        } catch (BadRequestException e) {
            JsonResponse.error(response, callback, 400, e.getMessage());
            return true;
        }
        response.getHeaders().put(StreamResponse.SCHEMAS, schemaFingerprint);
        new StreamExchange(request, response, callback, serving, params).start();
        return true;
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
}
