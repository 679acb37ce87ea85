package io.changegrid.relay;

import io.changegrid.config.Config;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.SourceUnavailableException;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.http.RelayHealth;
import io.changegrid.relay.http.RelayStatus;
import io.changegrid.relay.http.WaitingServer;
import io.changegrid.relay.security.AccessControl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a relay's fetcher, waiting for a source that cannot be reached yet (docs/relay.md,
 * "Starting while the source is down"): a relay started with its database, or before it, must not
 * exit because the database was not listening yet. While the provider answers {@link
 * SourceUnavailableException} the relay serves {@code /v1/health} (503 {@code WAITING_FOR_SOURCE})
 * and {@code /v1/status} on its address ({@link WaitingServer}) and opens again with backoff, from
 * {@value #FIRST_BACKOFF_MILLIS} ms doubling up to {@value #MAX_BACKOFF_MILLIS} ms, without end:
 * the operator sees why on both endpoints and in the log. Any other error (credentials, privileges,
 * a binlog that is not ROW, policies that do not fit) ends the start at once, as before.
 *
 * <p>Threading: {@link #open} runs on the starting thread; the waiting server's threads read the
 * last error through volatile fields.
 */
final class SourceWait {

    private static final Logger LOG = LoggerFactory.getLogger(SourceWait.class);
    static final long FIRST_BACKOFF_MILLIS = 250;
    static final long MAX_BACKOFF_MILLIS = 5_000;

    /** Opens the fetcher once. */
    interface Open {
        Fetcher open() throws Exception;
    }

    private final Config config;
    private final FetcherProvider source;
    private int port;
    private volatile String waitingFor;
    private volatile int attempts;

    SourceWait(Config config, FetcherProvider source) {
        this.config = config;
        this.source = source;
        this.port = config.get(RelaySettings.HTTP_PORT);
    }

    /**
     * The fetcher, once the source can be reached.
     *
     * @throws Exception what {@code open} threw other than {@link SourceUnavailableException}
     * @throws InterruptedException if the starting thread is interrupted while waiting
     */
    Fetcher open(Open open) throws Exception {
        WaitingServer server = null;
        long startedMillis = System.currentTimeMillis();
        long backoff = FIRST_BACKOFF_MILLIS;
        try {
            while (true) {
                try {
                    Fetcher fetcher = open.open();
                    if (server != null) {
                        LOG.info(
                                "source reached, relay starting: source={}, attempts={},"
                                        + " waited={}ms",
                                source.describe(config),
                                attempts + 1,
                                System.currentTimeMillis() - startedMillis);
                    }
                    return fetcher;
                } catch (SourceUnavailableException e) {
                    attempts++;
                    waitingFor = "waiting for source: " + e.getMessage();
                    LOG.warn(
                            "relay waiting for its source, retrying: source={}, attempt={},"
                                    + " in={}ms, cause={}",
                            source.describe(config),
                            attempts,
                            backoff,
                            e.getMessage());
                    if (server == null) {
                        server = serve();
                    }
                    Thread.sleep(backoff);
                    backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
                }
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /**
     * The port the relay's own server listens on: {@code http.port}, or the one the waiting server
     * took for {@code http.port: 0}, so that whoever asked while the relay waited finds it there.
     */
    int port() {
        return port;
    }

    private WaitingServer serve() throws Exception {
        WaitingServer server =
                new WaitingServer(
                        config.get(RelaySettings.HTTP_HOST),
                        port,
                        this::status,
                        () -> new RelayHealth(RelayHealth.WAITING_FOR_SOURCE, waitingFor),
                        RelaySettings.HTTP_TLS.read(config),
                        AccessControl.from(config));
        server.start();
        port = server.port();
        LOG.info(
                "relay serves /v1/health and /v1/status while it waits for its source: port={}",
                port);
        return server;
    }

    private RelayStatus status() {
        return new RelayStatus(
                config.get(RelaySettings.SOURCE_ID),
                source.describe(config),
                "",
                RelayHealth.WAITING_FOR_SOURCE,
                waitingFor,
                "",
                -1, // lastPublishedScn
                -1, // lagMillis
                null, // lagClock
                -1, // receivedMillis
                -1, // lagScn
                -1, // oldestScn
                -1, // newestScn
                -1, // highestEvictedScn
                0, // bytesUsed
                0, // capacity: no buffer serves yet
                0,
                0,
                false);
    }
}
