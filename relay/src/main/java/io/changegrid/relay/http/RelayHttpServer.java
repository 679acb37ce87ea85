package io.changegrid.relay.http;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.tls.HttpsConnectors;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.relay.config.ServingLimits;
import io.changegrid.relay.response.JsonResponse;
import io.changegrid.relay.security.AccessControl;
import io.changegrid.relay.security.SecurityHandler;
import io.changegrid.relay.snapshot.ChunkSource;
import io.changegrid.relay.stream.StreamHandler;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionConfig;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The relay's HTTP API on Jetty's core handlers (no servlets), one handler per endpoint: {@code
 * /v1/stream}, {@code /v1/schemas}, {@code /v1/health}, {@code /v1/status}, {@code /metrics}.
 * Unknown paths get a JSON 404 naming the path. Outside every handler, a request on a connection
 * beyond {@code http.maxConnections} gets 503 ({@link ConnectionLimitHandler}), and an {@link
 * Error} ends the process ({@link FatalErrorHandler}). With {@code http.tls.*} it speaks HTTPS only
 * ({@link HttpsConnectors}); in front of the endpoints, {@link SecurityHandler} recognizes each
 * request's principal and applies what it may do (docs/security.md).
 */
public final class RelayHttpServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;

    public RelayHttpServer(
            String host,
            int port,
            Supplier<RelayStatus> status,
            Supplier<RelayHealth> health,
            PrometheusMeterRegistry metrics,
            StreamHandler stream,
            SchemaRegistry schemas,
            ServingLimits limits) {
        this(
                host,
                port,
                status,
                health,
                metrics,
                stream,
                schemas,
                limits,
                TlsConfig.NONE,
                AccessControl.open());
    }

    /**
     * A server with TLS and access control.
     *
     * @throws UncheckedIOException naming a TLS file that cannot be read
     */
    public RelayHttpServer(
            String host,
            int port,
            Supplier<RelayStatus> status,
            Supplier<RelayHealth> health,
            PrometheusMeterRegistry metrics,
            StreamHandler stream,
            SchemaRegistry schemas,
            ServingLimits limits,
            TlsConfig tls,
            AccessControl access) {
        QueuedThreadPool threads = new QueuedThreadPool(64, 4);
        threads.setName("relay-http");
        server = new Server(threads, null, responseBuffers(limits));
        connector = RelayConnector.addTo(server, host, port, tls, access);
        PathMappingsHandler routes = new PathMappingsHandler();
        routes.addMapping(PathSpec.from(RelayApi.HEALTH), new HealthHandler(health));
        routes.addMapping(PathSpec.from(RelayApi.STATUS), new StatusHandler(status));
        routes.addMapping(PathSpec.from(RelayApi.METRICS), new MetricsHandler(metrics));
        routes.addMapping(PathSpec.from(RelayApi.STREAM), stream);
        routes.addMapping(PathSpec.from(RelayApi.SCHEMAS), new SchemasHandler(schemas));
        if (stream.snapshots() != null) {
            ChunkSource chunks = stream.snapshots().chunks();
            routes.addMapping(
                    PathSpec.from(RelayApi.SNAPSHOT_PAUSE),
                    new SnapshotControlHandler(chunks, true));
            routes.addMapping(
                    PathSpec.from(RelayApi.SNAPSHOT_RESUME),
                    new SnapshotControlHandler(chunks, false));
        }
        routes.addMapping(PathSpec.from("/"), new NotFound());
        // Compression negotiated with Accept-Encoding; gzip (the JDK's zlib) for frames and JSON.
        CompressionHandler compression =
                new CompressionHandler(new SecurityHandler(routes, access));
        compression.putCompression(new GzipCompression());
        compression.putConfiguration(
                "/",
                CompressionConfig.builder()
                        .defaults()
                        .compressIncludeMimeType(StreamHandler.BINARY_TYPE)
                        .compressIncludeMimeType(StreamHandler.JSON_TYPE)
                        .build());
        ConnectionLimitHandler limited =
                new ConnectionLimitHandler(compression, limits.maxConnections());
        connector.addEventListener(limited.counter());
        server.setHandler(new FatalErrorHandler(limited));
        Gauge.builder("changegrid.relay.http.connections.open", limited::open).register(metrics);
        Gauge.builder("changegrid.relay.stream.parked", stream::parkedPolls).register(metrics);
        stream.servingMeters().bindTo(metrics);
        Gauge.builder("changegrid.relay.stream.memory.used", stream::servingMemoryInUse)
                .baseUnit("bytes")
                .register(metrics);
        Gauge.builder("changegrid.relay.stream.memory.waiting", stream::servingMemoryWaiting)
                .register(metrics);
        Gauge.builder("changegrid.relay.stream.segments.pinned", stream::segmentsPinned)
                .register(metrics);
        Gauge.builder("changegrid.relay.stream.segments.swapped", stream::segmentsSwapped)
                .register(metrics);
    }

    public void start() throws Exception {
        server.start();
    }

    /** The port actually listened on (useful with port 0). */
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("HTTP server did not stop cleanly", e);
        }
    }

    private static final class NotFound extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            JsonResponse.error(
                    response,
                    callback,
                    404,
                    "no such endpoint: path=" + request.getHttpURI().getPath());
            return true;
        }
    }

    /**
     * The pool stream responses copy the buffer into. Jetty's default pool keeps buffers of up to
     * 64 KiB only, so every larger response allocated (and later freed through the GC) a direct
     * buffer of its own: stage 2 fell from ~570k to ~370k events/s with the relay waiting on direct
     * memory. Power-of-two buckets up to the serving budget, and idle buffers kept within it.
     */
    private static ArrayByteBufferPool responseBuffers(ServingLimits limits) {
        long budget = limits.servingMemoryBytes();
        int largest =
                (int)
                        Math.min(
                                Integer.highestOneBit(Integer.MAX_VALUE),
                                Long.highestOneBit(budget));
        return new ArrayByteBufferPool.Quadratic(0, largest, 64, budget, budget);
    }
}
