package io.changegrid.relay.http;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.stream.StreamHandler;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The relay's HTTP server, as a relay builds it, whose {@code /v1/status} throws an {@link
 * OutOfMemoryError} on the thread serving the request: {@link ServingErrorIT} runs it in a JVM of
 * its own, since the process must end. Prints {@code port=<port>} once it listens.
 */
public final class ServingErrorServer {

    private ServingErrorServer() {}

    public static void main(String[] args) throws Exception {
        ServingLimits limits = new ServingLimits(1 << 20, 100, 10);
        SchemaRegistry registry = new SchemaRegistry();
        EventBuffer buffer = new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
        RelayHttpServer server =
                new RelayHttpServer(
                        "127.0.0.1",
                        0,
                        () -> {
                            throw new OutOfMemoryError("injected: /v1/status on a serving thread");
                        },
                        () -> null,
                        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                        new StreamHandler(buffer, registry, 0, "none", () -> null, limits),
                        registry,
                        limits);
        server.start();
        System.out.println("port=" + server.port());
        Thread.sleep(Long.MAX_VALUE);
    }
}
