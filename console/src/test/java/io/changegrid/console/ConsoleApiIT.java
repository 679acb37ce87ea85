package io.changegrid.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.console.config.ConsoleConfig;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.group.GroupConsumer;
import io.changegrid.consumer.group.PartitionConfigs;
import io.changegrid.consumer.group.PartitionState;
import io.changegrid.consumer.group.PartitionStatus;
import io.changegrid.protocol.security.TokenTable;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's JSON API against a real group member on an in-process ZooKeeper: the grid document
 * shows the group, control operations are checked (unknown group, partition out of range, a reset
 * of a running partition, a GET) and an accepted one reaches the member; a secured console answers
 * 401 to a request without a known token and 403 to a principal without the operations role.
 */
class ConsoleApiIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldCheckControlOperationsAndHandAcceptedOnesToTheOwnerWhenPosted() throws Exception {
        String zooKeeper = ZOOKEEPER.zooKeeper().connectString();
        try (GroupConsumer member =
                        GroupConsumer.start(
                                PartitionConfigs.of(
                                        Map.of(
                                                "cluster.zookeeper",
                                                zooKeeper,
                                                "cluster.group",
                                                "api",
                                                "cluster.instance",
                                                "m0",
                                                "cluster.status.port",
                                                0,
                                                "subscription.partitions",
                                                2,
                                                // Nobody answers there: partitions run and retry.
                                                "relays",
                                                List.of("http://127.0.0.1:9")),
                                        List.of()),
                                assignment -> event -> CallbackResult.SUCCESS);
                Console console =
                        Console.start(
                                ConsoleConfig.of(
                                        Map.of(
                                                "cluster.zookeeper", zooKeeper,
                                                "http.port", "0",
                                                "sample.interval", "250ms")))) {
            String url = console.url();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () -> {
                                JsonNode group = get(url + "api/grid").path("groups").path(0);
                                assertThat(group.path("group").asText()).isEqualTo("api");
                                assertThat(group.path("report").path("partitionStates"))
                                        .extracting(p -> p.path("owner").asText())
                                        .containsExactly("m0", "m0");
                            });

            assertThat(post(url + "api/groups/nope/pause")).isEqualTo(404);
            assertThat(post(url + "api/groups/api/partitions/2/pause")).isEqualTo(400);
            assertThat(post(url + "api/groups/api/partitions/1/reset?scn=5")).isEqualTo(409);
            assertThat(
                            http.send(
                                            HttpRequest.newBuilder(
                                                            URI.create(
                                                                    url + "api/groups/api/pause"))
                                                    .build(),
                                            HttpResponse.BodyHandlers.discarding())
                                    .statusCode())
                    .isEqualTo(405);

            assertThat(post(url + "api/groups/api/partitions/1/pause")).isEqualTo(200);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () ->
                                    assertThat(member.status().partitions())
                                            .extracting(PartitionStatus::state)
                                            .containsExactly(
                                                    PartitionState.RUNNING, PartitionState.PAUSED));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () ->
                                    assertThat(
                                                    get(url + "api/grid")
                                                            .path("groups")
                                                            .path(0)
                                                            .path("control")
                                                            .path("pausedPartitions")
                                                            .toString())
                                            .isEqualTo("[1]"));
            assertThat(post(url + "api/groups/api/partitions/1/reset?scn=5")).isEqualTo(200);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () ->
                                    assertThat(member.status().partitions().get(1).startScn())
                                            .isEqualTo(5));
        }
    }

    @Test
    void shouldRefuseTheApiWhenTheTokenIsUnknownOrLacksTheOperationsRole(@TempDir Path files)
            throws Exception {
        Path tokens =
                Files.writeString(
                        files.resolve("tokens"),
                        TokenTable.SHA256
                                + TokenTable.hash("ops-secret")
                                + " ops\n"
                                + TokenTable.SHA256
                                + TokenTable.hash("app-secret")
                                + " orders-app\n");
        Path access =
                Files.writeString(
                        files.resolve("access.yaml"),
                        "principals:\n"
                                + "  ops: {operations: true}\n"
                                + "  orders-app: {tables: [shop.orders]}\n");
        try (Console console =
                Console.start(
                        ConsoleConfig.of(
                                Map.of(
                                        "cluster.zookeeper",
                                        ZOOKEEPER.zooKeeper().connectString(),
                                        "http.port",
                                        "0",
                                        "sample.interval",
                                        "250ms",
                                        "security.tokens",
                                        tokens.toString(),
                                        "security.access",
                                        access.toString())))) {
            String url = console.url();
            assertThat(status(url + "api/grid", null)).isEqualTo(401);
            assertThat(status(url + "api/grid", "wrong")).isEqualTo(401);
            assertThat(status(url + "api/grid", "app-secret")).isEqualTo(403);
            assertThat(post(url + "api/groups/api/pause")).isEqualTo(401);
            assertThat(post(url + "api/groups/api/pause", "app-secret")).isEqualTo(403);
            // The page holds no data and must load to ask for a token.
            assertThat(status(url, null)).isEqualTo(200);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .untilAsserted(
                            () ->
                                    assertThat(status(url + "api/grid", "ops-secret"))
                                            .isEqualTo(200));
            assertThat(post(url + "api/groups/nope/pause", "ops-secret")).isEqualTo(404);
        }
    }

    private int status(String url, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private JsonNode get(String url) throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private int post(String url) throws Exception {
        return post(url, null);
    }

    private int post(String url, String token) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
