package io.changegrid.relay.stream;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.response.JsonResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /v1/stream}: whole transactions after a checkpoint, long-polled (see {@link
 * StreamRequest} for the parameters and {@link StreamExchange} for the waiting). Answers 400 naming
 * a bad parameter, 410 with the oldest SCN held when the checkpoint fell out of the buffer.
 */
public final class StreamHandler extends Handler.Abstract.NonBlocking {

    /** Content type of binary responses: frames back to back. */
    public static final String BINARY_TYPE = StreamExchange.BINARY_TYPE;

    /** Content type of JSON responses: one event per line. */
    public static final String JSON_TYPE = StreamExchange.JSON_TYPE;

    private final EventBuffer buffer;
    private final SchemaRegistry registry;
    private final SubscriptionFilters filters;
    private final String schemaFingerprint;
    private final String sourceId;

    /** A handler of a relay of source 0 without policies. */
    public StreamHandler(EventBuffer buffer, SchemaRegistry registry) {
        this(buffer, registry, 0, "none");
    }

    /**
     * @param registry the schemas the buffer's frames name
     * @param sourceId the relay's {@code source.id}, which its frames carry, sent with every
     *     response
     * @param schemaFingerprint the relay's policies' {@link
     *     io.changegrid.policy.capture.CapturePlan#schemaFingerprint()}, sent with every response
     */
    public StreamHandler(
            EventBuffer buffer, SchemaRegistry registry, int sourceId, String schemaFingerprint) {
        this.buffer = buffer;
        this.registry = registry;
        this.filters = new SubscriptionFilters(registry);
        this.sourceId = Integer.toString(sourceId);
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
        response.getHeaders().put(StreamResponse.SOURCE_ID, sourceId);
        new StreamExchange(request, response, callback, buffer, registry, params).start();
        return true;
    }
}
