package io.changegrid.relay.http;

import io.changegrid.relay.response.JsonResponse;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /v1/health}: 200 {@code {"status":"UP"}} while the relay's fetcher runs (or is
 * reconnecting), 503 with the reason once it has stopped on an error — the buffer can still be
 * read, but it no longer grows.
 */
final class HealthHandler extends Handler.Abstract.NonBlocking {

    private final Supplier<RelayHealth> health;

    HealthHandler(Supplier<RelayHealth> health) {
        this.health = health;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (JsonResponse.rejectUnlessGet(request, response, callback)) {
            return true;
        }
        RelayHealth now = health.get();
        JsonResponse.send(
                response,
                callback,
                now.problem() == null ? 200 : 503,
                json -> {
                    json.writeStringField("status", now.problem() == null ? "UP" : "DOWN");
                    json.writeStringField("fetcher", now.fetchState());
                    if (now.problem() != null) {
                        json.writeStringField("reason", now.problem());
                    }
                });
        return true;
    }
}
