package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.events.Operation;
import io.changegrid.gridkit.server.PostgresServer;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.PostgresServerExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay with {@code source.type: postgresql}, found through the fetcher SPI, on a private
 * PostgreSQL: it serves the source's transactions and, restarted from its replay point, rebuilds
 * the same timeline with nothing lost or repeated.
 */
class PostgresSourceIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @TempDir Path state;

    private Config config(PostgresServer server) {
        return config(server, "shop", "relay1");
    }

    private Config config(PostgresServer server, String database, String slot) {
        return RelaySettings.load(
                Map.of(),
                Map.of(
                        "source.type",
                        "postgresql",
                        "source.host",
                        server.host(),
                        "source.port",
                        Integer.toString(server.port()),
                        "source.database",
                        database,
                        "source.user",
                        server.user(),
                        "source.slot",
                        slot,
                        "buffer.capacity",
                        "16MiB",
                        "buffer.segmentSize",
                        "1MiB",
                        "state.directory",
                        state.resolve(slot).toString(),
                        "http.port",
                        "0"));
    }

    private static void insertTransactions(int from, int count) throws SQLException {
        for (int id = from; id < from + count; id++) {
            POSTGRES.server()
                    .execute(
                            "shop",
                            "INSERT INTO orders VALUES ("
                                    + (2 * id)
                                    + ", 'a'), ("
                                    + (2 * id + 1)
                                    + ", 'b')");
        }
    }

    /** Insert frames per transaction SCN, as served from the start of the buffer. */
    private static TreeMap<Long, Long> insertsByScn(Relay relay) throws Exception {
        HttpResponse<byte[]> response =
                new StreamClient(relay.httpPort()).get("/v1/stream?from=-1&timeoutMs=0");
        assertThat(response.statusCode()).isEqualTo(200);
        List<StreamClient.Frame> frames = StreamClient.frames(response.body());
        return frames.stream()
                .filter(f -> f.operationCode() == Operation.INSERT.code())
                .collect(
                        Collectors.groupingBy(
                                StreamClient.Frame::scn, TreeMap::new, Collectors.counting()));
    }

    @Test
    void shouldRebuildTheSameTimelineWithNothingLostOrRepeatedWhenRestarted() throws Exception {
        POSTGRES.server().createDatabase("shop");
        POSTGRES.server()
                .execute(
                        "shop",
                        "CREATE TABLE orders (id int PRIMARY KEY, note text)",
                        "ALTER TABLE orders REPLICA IDENTITY FULL");
        TreeMap<Long, Long> before;
        try (Relay relay = Relay.start(config(POSTGRES.server()))) {
            insertTransactions(0, 5);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> insertsByScn(relay).size() == 5);
            before = insertsByScn(relay);
            assertThat(relay.status().sourceAddress()).contains("/shop slot=relay1");
        }
        insertTransactions(5, 3); // while the relay is down: the slot keeps them
        try (Relay relay = Relay.start(config(POSTGRES.server()))) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> insertsByScn(relay).size() >= 8);
            TreeMap<Long, Long> after = insertsByScn(relay);
            assertThat(after).hasSize(8).containsAllEntriesOf(before);
            assertThat(after.values()).containsOnly(2L);
            assertThat(relay.failure()).isNull();
        }
    }

    @Test
    void shouldServeEveryEarlierSchemaVersionWhenRestartedAfterTableChanges() throws Exception {
        PostgresServer server = POSTGRES.server();
        server.createDatabase("hist");
        server.execute(
                "hist",
                "CREATE TABLE items (id int PRIMARY KEY, a text)",
                "ALTER TABLE items REPLICA IDENTITY FULL");
        String v1;
        String v2;
        try (Relay relay = Relay.start(config(server, "hist", "hist1"))) {
            server.execute(
                    "hist",
                    "INSERT INTO items VALUES (1, 'x')",
                    "ALTER TABLE items ADD b int",
                    "INSERT INTO items VALUES (2, 'y', 2)");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> insertsByScn(relay).size() == 2);
            v1 = schema(relay, 1);
            v2 = schema(relay, 2);
            assertThat(v1).contains("\"name\":\"a\"").doesNotContain("\"name\":\"b\"");
            assertThat(v2).contains("\"name\":\"b\"");
        }
        // While the relay is down the table changes again: the restarted relay re-reads the WAL
        // after its replay point, rows of version 2 first, then the change to version 3.
        server.execute(
                "hist",
                "INSERT INTO items VALUES (3, 'z', 3)",
                "ALTER TABLE items ADD c text",
                "INSERT INTO items VALUES (4, 'w', 4, 'c')");
        try (Relay relay = Relay.start(config(server, "hist", "hist1"))) {
            var client = new StreamClient(relay.httpPort());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(
                            () ->
                                    client.getText("/v1/schemas?tableId=1&version=3").statusCode()
                                            == 200);
            assertThat(schema(relay, 1)).isEqualTo(v1);
            assertThat(schema(relay, 2)).isEqualTo(v2);
            String v3 = schema(relay, 3);
            assertThat(v3).contains("\"name\":\"c\"");
            assertThat(client.getText("/v1/schemas?tableId=1&version=4").statusCode())
                    .isEqualTo(404);
            assertThat(relay.failure()).isNull();
        }
    }

    /** The relay's answer for version {@code version} of table id 1, which must exist. */
    private static String schema(Relay relay, int version) throws Exception {
        HttpResponse<String> response =
                new StreamClient(relay.httpPort())
                        .getText("/v1/schemas?tableId=1&version=" + version);
        assertThat(response.statusCode())
                .as("schema version %d: %s", version, response.body())
                .isEqualTo(200);
        return response.body();
    }
}
