package io.changegrid.relay.http;

import io.changegrid.relay.response.JsonResponse;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code GET /metrics}: the relay's Micrometer meters in Prometheus text format. */
final class MetricsHandler extends Handler.Abstract.NonBlocking {

    private final PrometheusMeterRegistry registry;

    MetricsHandler(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (JsonResponse.rejectUnlessGet(request, response, callback)) {
            return true;
        }
        response.setStatus(200);
        response.getHeaders()
                .put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
        Content.Sink.write(response, true, registry.scrape(), callback);
        return true;
    }
}
