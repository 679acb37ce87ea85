package io.changegrid.deploy;

import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.awaitility.Awaitility;

/** Starts a real relay in-process against a private mariadbd, as operators would configure one. */
final class RelayFixture {

    private RelayFixture() {}

    /** A relay reading {@code server}'s binlog from its current end, on a free port. */
    static Relay start(MariaDbServer server, Path stateDirectory, long serverId) throws Exception {
        return start(server, stateDirectory, serverId, Map.of());
    }

    /** As {@link #start(MariaDbServer, Path, long)}, with more settings ({@code key=value}). */
    static Relay start(
            MariaDbServer server, Path stateDirectory, long serverId, Map<String, String> more)
            throws Exception {
        Map<String, String> settings =
                new HashMap<>(
                        Map.of(
                                "source.host", server.host(),
                                "source.port", Integer.toString(server.port()),
                                "source.user", server.user(),
                                "source.password", server.password(),
                                "source.serverId", Long.toString(serverId),
                                "source.heartbeatInterval", "200ms",
                                "buffer.capacity", "16MiB",
                                "buffer.segmentSize", "1MiB",
                                "state.directory", stateDirectory.toString(),
                                "http.port", "0"));
        settings.putAll(more);
        Relay relay = Relay.start(RelaySettings.load(Map.of(), settings));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> relay.buffer().newestScn() >= 0);
        return relay;
    }

    /** The relay's base URL for a consumer. */
    static String url(Relay relay) {
        return "http://127.0.0.1:" + relay.httpPort();
    }
}
