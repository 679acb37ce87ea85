package io.changegrid.appliers.it;

import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresServer;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/**
 * A real relay in-process on a private mariadbd (or PostgreSQL, or the LogMiner stand-in), and
 * consumers of it, as in deploy's tests.
 */
final class Pipeline {

    private Pipeline() {}

    static Relay startRelay(MariaDbServer server, Path stateDirectory, long serverId)
            throws Exception {
        return startRelay(server, stateDirectory, serverId, Map.of());
    }

    /** A relay with {@code more} settings besides the source and local ones, e.g. its capture. */
    static Relay startRelay(
            MariaDbServer server, Path stateDirectory, long serverId, Map<String, String> more)
            throws Exception {
        Map<String, String> settings =
                new java.util.HashMap<>(
                        Map.of(
                                "source.host", server.host(),
                                "source.port", Integer.toString(server.port()),
                                "source.user", server.user(),
                                "source.password", server.password(),
                                "source.serverId", Long.toString(serverId),
                                "source.heartbeatInterval", "200ms",
                                "buffer.capacity", "64MiB",
                                "buffer.segmentSize", "4MiB",
                                "state.directory", stateDirectory.toString(),
                                "http.port", "0"));
        settings.putAll(more);
        Relay relay = Relay.start(RelaySettings.load(Map.of(), settings));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> relay.buffer().newestScn() >= 0);
        return relay;
    }

    /**
     * A relay with {@code source.type: postgresql} on {@code database} of a private PostgreSQL,
     * capturing every schema's tables; its slot is named after its state directory's use.
     */
    static Relay startPostgresRelay(
            PostgresServer server, String database, String slot, Path stateDirectory)
            throws Exception {
        Map<String, String> settings =
                Map.ofEntries(
                        Map.entry("source.type", "postgresql"),
                        Map.entry("source.host", server.host()),
                        Map.entry("source.port", Integer.toString(server.port())),
                        Map.entry("source.database", database),
                        Map.entry("source.user", server.user()),
                        Map.entry("source.slot", slot),
                        Map.entry("source.heartbeatInterval", "200ms"),
                        Map.entry("buffer.capacity", "64MiB"),
                        Map.entry("buffer.segmentSize", "8MiB"),
                        Map.entry("state.directory", stateDirectory.toString()),
                        Map.entry("http.port", "0"));
        Relay relay = Relay.start(RelaySettings.load(Map.of(), settings));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> relay.buffer().newestScn() >= 0);
        return relay;
    }

    /**
     * A relay with {@code source.type: logminer} mining grid-kit's LogMiner stand-in (dialect
     * {@code postgresql-stand-in}) from its current SCN.
     */
    static Relay startLogMinerRelay(LogMinerStandIn standIn, Path stateDirectory) throws Exception {
        Map<String, String> settings =
                Map.ofEntries(
                        Map.entry("source.type", "logminer"),
                        Map.entry("source.url", standIn.jdbcUrl()),
                        Map.entry("source.user", standIn.user()),
                        Map.entry("source.dialect", "postgresql-stand-in"),
                        Map.entry("source.pollInterval", "20ms"),
                        Map.entry("source.heartbeatInterval", "200ms"),
                        Map.entry("buffer.capacity", "64MiB"),
                        Map.entry("buffer.segmentSize", "8MiB"),
                        Map.entry("state.directory", stateDirectory.toString()),
                        Map.entry("http.port", "0"));
        return Relay.start(RelaySettings.load(Map.of(), settings));
    }

    static String url(Relay relay) {
        return "http://127.0.0.1:" + relay.httpPort();
    }

    static Consumer consume(
            Relay relay,
            String database,
            ConsumerCallback callback,
            CheckpointStore store,
            int batch)
            throws Exception {
        Consumer consumer =
                Consumer.builder()
                        .name("applier-" + database)
                        .relays(url(relay))
                        .subscription(Subscription.tables(database + ".*"))
                        .pollTimeout(Duration.ofSeconds(2))
                        .batching(batch, Duration.ofMillis(20))
                        .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
                        .callback(callback)
                        .checkpointStore(store)
                        .build();
        consumer.start();
        return consumer;
    }

    /** The source's newest binlog SCN is not needed: wait until the condition or a failure. */
    static void awaitUntil(Consumer consumer, BooleanSupplier condition, Duration atMost) {
        Awaitility.await()
                .atMost(atMost)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () ->
                                consumer.state() == ConsumerState.FAILED
                                        || consumer.state() == ConsumerState.STOPPED
                                        || condition.getAsBoolean());
        if (consumer.failure().isPresent()) {
            throw new AssertionError(
                    "consumer failed: " + consumer.failure().get(), consumer.failure().get());
        }
    }

    static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
