package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.Operation;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.http.RelayStatus;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay reading a second kind of source, the test-only {@code source.type: generated}
 * (io.changegrid.relay.generated), found through the fetcher SPI like the MySQL fetcher: its
 * settings, its transactions through the same sink and policies, its own resume position.
 */
class SecondSourceTest {

    @TempDir Path state;

    private RelayConfiguration configuration(int transactions, String policies) {
        Map<String, Object> tree =
                policies == null
                        ? Map.of()
                        : new LinkedHashMap<>(YamlConfigFile.parse(policies, "test"));
        return RelayConfiguration.load(
                tree,
                Map.of(
                        "source.type", "generated",
                        "source.transactions", Integer.toString(transactions),
                        "buffer.capacity", "1MiB",
                        "buffer.segmentSize", "64KiB",
                        "state.directory", state.toString(),
                        "http.port", "0"));
    }

    private static List<StreamClient.Frame> streamAll(Relay relay) throws Exception {
        HttpResponse<byte[]> response =
                new StreamClient(relay.httpPort()).get("/v1/stream?from=-1&timeoutMs=0");
        assertThat(response.statusCode()).isEqualTo(200);
        return StreamClient.frames(response.body());
    }

    private static List<Long> insertScns(List<StreamClient.Frame> frames) {
        return frames.stream()
                .filter(f -> f.operationCode() == Operation.INSERT.code())
                .map(StreamClient.Frame::scn)
                .toList();
    }

    @Test
    void shouldServeTheTransactionsOfASecondSourceTypeWhenSourceTypeNamesIt() throws Exception {
        try (Relay relay = Relay.start(configuration(5, null))) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> relay.status().lastPublishedScn() >= 59);

            assertThat(insertScns(streamAll(relay))).containsExactly(10L, 20L, 30L, 40L, 50L);
            RelayStatus status = relay.status();
            assertThat(status.sourceAddress()).isEqualTo("5 generated transactions");
            assertThat(status.fetchPosition()).isEqualTo("generated:6");
            assertThat(relay.failure()).isNull();
        }
    }

    @Test
    void shouldResumeAtTheSourcesOwnSavedPositionWhenRestarted() throws Exception {
        try (Relay relay = Relay.start(configuration(3, null))) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> relay.status().lastPublishedScn() >= 39);
        }
        try (Relay relay = Relay.start(configuration(6, null))) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> relay.status().lastPublishedScn() >= 69);
            // The replay point is the generated source's own text: the restarted buffer holds
            // every transaction once, with the SCNs it had.
            assertThat(insertScns(streamAll(relay))).containsExactly(10L, 20L, 30L, 40L, 50L, 60L);
        }
    }

    @Test
    void shouldApplyTheRelaysPoliciesToASecondSourceWhenItRoutesThroughTheRouter()
            throws Exception {
        String policies =
                """
                policies:
                  - name: even
                    include: [demo.items]
                    where: id IN (2, 4)
                """;
        try (Relay relay = Relay.start(configuration(5, policies))) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> relay.status().lastPublishedScn() >= 59);

            assertThat(insertScns(streamAll(relay))).containsExactly(20L, 40L);
        }
    }

    @Test
    void shouldReportAKeyTheChosenSourceTypeDoesNotHaveWhenLoading() {
        assertThatThrownBy(
                        () ->
                                RelaySettings.load(
                                        Map.of(),
                                        Map.of("source.type", "generated", "source.host", "db")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "unknown key: path=source.host (not a setting of source.type=generated)");
    }

    @Test
    void shouldNameTheKnownSourceTypesWhenTheTypeIsUnknown() {
        assertThatThrownBy(
                        () ->
                                RelaySettings.load(
                                        Map.of("source", Map.of("type", "oracle")), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("path=source.type")
                .hasMessageContaining("value=oracle")
                .hasMessageContaining("known=[generated, ")
                .hasMessageContaining("mysql, postgresql]");
    }
}
