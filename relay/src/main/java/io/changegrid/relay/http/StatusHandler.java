package io.changegrid.relay.http;

import io.changegrid.relay.response.JsonResponse;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code GET /v1/status}: the relay's source, fetch position and lag, and event buffer. */
final class StatusHandler extends Handler.Abstract.NonBlocking {

    private final Supplier<RelayStatus> status;

    StatusHandler(Supplier<RelayStatus> status) {
        this.status = status;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (JsonResponse.rejectUnlessGet(request, response, callback)) {
            return true;
        }
        RelayStatus now = status.get();
        JsonResponse.send(
                response,
                callback,
                200,
                json -> {
                    json.writeObjectFieldStart("source");
                    json.writeNumberField("id", now.sourceId());
                    json.writeStringField("address", now.sourceAddress());
                    json.writeStringField("timeline", now.timeline());
                    json.writeEndObject();
                    json.writeObjectFieldStart("fetch");
                    json.writeStringField("state", now.fetchState());
                    if (now.fetchError() != null) {
                        json.writeStringField("error", now.fetchError());
                    }
                    json.writeStringField("position", now.fetchPosition());
                    json.writeNumberField("lastPublishedScn", now.lastPublishedScn());
                    json.writeNumberField("lagMillis", now.lagMillis());
                    json.writeStringField("lagClock", now.lagClock());
                    json.writeNumberField("receivedMillis", now.receivedMillis());
                    json.writeNumberField("lagScn", now.lagScn());
                    json.writeEndObject();
                    json.writeObjectFieldStart("buffer");
                    json.writeNumberField("oldestScn", now.oldestScn());
                    json.writeNumberField("newestScn", now.newestScn());
                    json.writeNumberField("highestEvictedScn", now.highestEvictedScn());
                    json.writeNumberField("bytesUsed", now.bytesUsed());
                    json.writeNumberField("capacity", now.capacity());
                    json.writeNumberField("transactionsAppended", now.transactionsAppended());
                    json.writeNumberField("transactionsEvicted", now.transactionsEvicted());
                    json.writeEndObject();
                    json.writeObjectFieldStart("snapshot");
                    json.writeBooleanField("paused", now.snapshotReadsPaused());
                    json.writeEndObject();
                });
        return true;
    }
}
