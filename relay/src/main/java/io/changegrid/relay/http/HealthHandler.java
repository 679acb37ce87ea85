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
 *
 * <p>While the relay catches up after a start (it has not yet read up to the source's end), 503
 * {@code {"status":"CATCHING_UP"}} with the fetch position and lag: a load balancer or consumer
 * group should not send new consumers to a relay that may be hours behind, while consumers already
 * on it go on streaming, since {@code /v1/stream} does not look at health.
 *
 * <p>A relay started while its source cannot be reached answers 503 {@code
 * {"status":"WAITING_FOR_SOURCE"}} with the reason until it can ({@link WaitingServer}).
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
                now.problem() == null && !now.catchingUp() ? 200 : 503,
                json -> {
                    json.writeStringField(
                            "status",
                            RelayHealth.WAITING_FOR_SOURCE.equals(now.fetchState())
                                    ? RelayHealth.WAITING_FOR_SOURCE
                                    : now.problem() != null
                                            ? "DOWN"
                                            : now.catchingUp() ? RelayHealth.CATCHING_UP : "UP");
                    json.writeStringField("fetcher", now.fetchState());
                    if (now.problem() != null) {
                        json.writeStringField("reason", now.problem());
                    }
                    if (now.catchingUp()) {
                        json.writeStringField("position", now.fetchPosition());
                        json.writeNumberField("lagScn", now.lagScn());
                        json.writeNumberField("lagMillis", now.lagMillis());
                    }
                });
        return true;
    }
}
