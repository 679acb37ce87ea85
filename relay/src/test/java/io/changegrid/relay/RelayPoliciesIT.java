package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferReader;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.testkit.MariaDbExtension;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay with policies against a private mariadbd: what reaches its buffer is selected, masked,
 * renamed and added to as configured, across a schema change, and subscriptions filter on top.
 */
class RelayPoliciesIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir static Path state;
    @TempDir static Path badState;

    static final String POLICIES =
            """
            policies:
              - name: customers
                include: [shop.customers]
                where: tenant_id IN (3, 7) AND email LIKE 'secret-%@example.com'
                transform:
                  rename: {name: full_name}
                  mask: {email: {hash: {salt: pepper}}}
                  drop: [ssn]
                  add: {src_db: {source: database}}
            """;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Relay relay;
    private static StreamClient client;

    static RelayConfiguration configuration(
            MariaDbServer server, Path stateDirectory, long serverId, String policies) {
        Map<String, Object> tree = new LinkedHashMap<>(YamlConfigFile.parse(policies, "test"));
        return RelayConfiguration.load(
                tree,
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
    }

    @BeforeAll
    static void startRelay() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE DATABASE ops",
                        "CREATE TABLE shop.customers (id INT PRIMARY KEY, tenant_id INT,"
                                + " email VARCHAR(80), ssn VARCHAR(20), name VARCHAR(40))",
                        "CREATE TABLE ops.audit (id INT PRIMARY KEY, what VARCHAR(80))");
        relay = Relay.start(configuration(MARIADB.server(), state, 9_301, POLICIES));
        client = new StreamClient(relay.httpPort());
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> relay.buffer().newestScn() >= 0);

        for (int id = 1; id <= 20; id++) {
            MARIADB.server()
                    .execute(
                            "INSERT INTO shop.customers VALUES ("
                                    + id
                                    + ", "
                                    + (id % 10 + 1)
                                    + ", 'secret-"
                                    + id
                                    + "@example.com', 'ssn-"
                                    + id
                                    + "', 'Zoë "
                                    + id
                                    + "')",
                            "INSERT INTO ops.audit VALUES (" + id + ", 'secret-audit')");
        }
        MARIADB.server()
                .execute(
                        "ALTER TABLE shop.customers ADD COLUMN phone VARCHAR(20)",
                        "INSERT INTO shop.customers VALUES (21, 3, 'secret-21@example.com',"
                                + " 'ssn-21', 'Late', '555-0100')",
                        "UPDATE shop.customers SET email = 'secret-new@example.com' WHERE id = 2",
                        "DELETE FROM shop.customers WHERE id = 6");
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    /** Every row and schema-change event the relay holds, as JSON. */
    private static List<JsonNode> events(String filter) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        long from = -1;
        while (true) {
            String query = "/v1/stream?format=json&timeoutMs=0&from=" + from;
            if (filter != null) {
                query += "&filter=" + URLEncoder.encode(filter, StandardCharsets.UTF_8);
            }
            HttpResponse<String> response = client.getText(query);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            long last =
                    Long.parseLong(response.headers().firstValue("X-Changegrid-Last-Scn").get());
            if (last == from) {
                return events;
            }
            for (String line : response.body().split("\n")) {
                if (!line.isBlank()) {
                    JsonNode event = JSON.readTree(line);
                    String op = event.get("op").asText();
                    if (!op.equals("HEARTBEAT") && !op.equals("END_OF_TRANSACTION")) {
                        events.add(event);
                    }
                }
            }
            from = last;
        }
    }

    private static void awaitRows(int count) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> events(null).stream().filter(e -> e.has("key")).count() >= count);
    }

    @Test
    void shouldHoldOnlySelectedTransformedRowsWhenPoliciesApply() throws Exception {
        // tenants 3 and 7: ids 2, 6, 12, 16 before the ALTER, 21 after; the update of 2, the
        // delete of 6
        awaitRows(7);
        List<JsonNode> rows = new ArrayList<>();
        for (JsonNode event : events(null)) {
            assertThat(event.get("db").asText() + "." + event.get("table").asText())
                    .isEqualTo("shop.customers");
            if (event.has("key")) {
                rows.add(event);
            }
        }
        assertThat(rows)
                .extracting(e -> e.get("key").get("id").asInt())
                .containsExactly(2, 6, 12, 16, 21, 2, 6);
        for (int i = 0; i < rows.size(); i++) {
            JsonNode row = rows.get(i);
            JsonNode image = row.has("after") ? row.get("after") : row.get("before");
            int id = row.get("key").get("id").asInt();
            String email = i == 5 ? "secret-new@example.com" : "secret-" + id + "@example.com";
            // The binlog carries utf8mb4 text as bytes: the hash is of the text, salt first.
            assertThat(image.get("email").asText()).isEqualTo(sha256Hex("pepper" + email));
            assertThat(image.get("tenant_id").asInt()).isIn(3, 7);
            assertThat(image.has("ssn")).isFalse();
            assertThat(image.has("name")).isFalse();
            assertThat(image.get("full_name").asText())
                    .startsWith(row.get("key").get("id").asInt() == 21 ? "Late" : "Zoë");
            assertThat(image.get("email").asText()).matches("[0-9a-f]{64}");
            assertThat(image.get("src_db").asText()).isEqualTo("shop");
        }
        JsonNode late = rows.get(4).get("after");
        assertThat(late.get("phone").asText())
                .as("a column added at the source arrives")
                .isEqualTo("555-0100");
        assertThat(late.has("ssn"))
                .as("the dropped column stays dropped after the ALTER")
                .isFalse();
    }

    @Test
    void shouldNeverLetAMaskedOrDroppedValueIntoTheBuffer() {
        awaitRows(7);
        EventBufferReader reader = relay.buffer().newReader();
        ByteBuffer destination = ByteBuffer.allocate(4 << 20).order(ByteOrder.LITTLE_ENDIAN);
        long checkpoint =
                Math.max(EventBuffer.NULL_SCN, relay.buffer().highestEvictedScn()); // the oldest
        StringBuilder everything = new StringBuilder();
        while (true) {
            destination.clear();
            int result = reader.read(checkpoint, destination);
            if (result <= 0) {
                assertThat(result).isEqualTo(EventBufferReader.NOTHING_YET);
                break;
            }
            everything.append(
                    new String(
                            destination.array(),
                            0,
                            reader.bytesCopied(),
                            StandardCharsets.ISO_8859_1));
            checkpoint = reader.lastScn();
        }
        assertThat(everything.toString())
                .contains("Zo") // the buffer was read
                .doesNotContain("secret-")
                .doesNotContain("ssn-")
                .doesNotContain("example.com");
    }

    @Test
    void shouldPublishTheTransformedSchemaWhenTheSourceAltersATable() throws Exception {
        awaitRows(7);
        JsonNode change =
                events(null).stream()
                        .filter(e -> e.get("op").asText().equals("SCHEMA_CHANGE"))
                        .findFirst()
                        .orElseThrow();
        assertThat(change.get("ddl").asText()).contains("ADD COLUMN phone");
        JsonNode schema =
                JSON.readTree(
                        client.getText(
                                        "/v1/schemas?tableId="
                                                + change.get("tableId").asInt()
                                                + "&version="
                                                + change.get("schemaVersion").asInt())
                                .body());
        List<String> columns = new ArrayList<>();
        schema.findValue("columns").forEach(c -> columns.add(c.get("name").asText()));
        assertThat(columns)
                .containsExactly("id", "tenant_id", "email", "full_name", "phone", "src_db");
    }

    @Test
    void shouldFilterOnTopWhenASubscriptionHasPolicies() throws Exception {
        awaitRows(7);
        String filter =
                "{\"policies\":[{\"include\":[\"shop.customers\"],\"where\":\"tenant_id = 3\"}]}";
        List<JsonNode> rows = events(filter).stream().filter(e -> e.has("key")).toList();
        assertThat(rows)
                .extracting(e -> e.get("key").get("id").asInt())
                .containsExactly(2, 12, 21, 2);
    }

    @Test
    void shouldAnswer400NamingThePathWhenASubscriptionNamesAnUnknownColumn() throws Exception {
        String unknownColumn =
                "{\"policies\":[{\"include\":[\"shop.customers\"],\"where\":\"ssn = 'x'\"}]}";
        HttpResponse<String> response =
                client.getText(
                        "/v1/stream?from=-1&filter="
                                + URLEncoder.encode(unknownColumn, StandardCharsets.UTF_8));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("name=filter")
                .contains("policies[0].where: unknown column: table=shop.customers, value=ssn");

        String unpartitioned =
                "{\"policies\":[{\"include\":[\"shop.customers\"]}],\"partition\":0}";
        response =
                client.getText(
                        "/v1/stream?from=-1&filter="
                                + URLEncoder.encode(unpartitioned, StandardCharsets.UTF_8));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("policies[0].partition: missing");
    }

    @Test
    void shouldRefuseToStartWhenAPolicyNamesWhatTheSourceLacks() {
        String policies =
                """
                policies:
                  - include: [shop.customers]
                    transform: {mask: {phonenumber: {fixed: '*'}}}
                  - include: [shop.nothing_here]
                """;
        ConfigException e =
                catchThrowableOfType(
                        ConfigException.class,
                        () ->
                                Relay.start(
                                        configuration(
                                                MARIADB.server(), badState, 9_302, policies)));
        assertThat(e.problems())
                .containsExactly(
                        "policies[0]: unknown column: table=shop.customers,"
                                + " key=transform.mask.phonenumber, value=phonenumber",
                        "policies[1].include: selects no known table: value=[shop.nothing_here]");
    }

    private static String sha256Hex(String text) throws Exception {
        return java.util.HexFormat.of()
                .formatHex(
                        java.security.MessageDigest.getInstance("SHA-256")
                                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
