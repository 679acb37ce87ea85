package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.relay.http.RelayHealth;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole relay says "catching up" on {@code /v1/health} (503, with position and lag) and {@code
 * /v1/status} ({@code fetchState}) until its fetcher has reached the source's end, then RUNNING and
 * 200 (issue 20, section 4). {@code HealthCatchingUpTest} pins the rendering; this pins that a
 * relay derives the state from {@code Fetcher.reachedEnd()}. The test source ({@code source.type:
 * generated}) pauses before each of its 30 transactions, so the end comes after about 1.5 s.
 */
class RelayCatchingUpTest {

    private static final int TRANSACTIONS = 30;

    @TempDir Path state;

    @Test
    void shouldSayCatchingUpUntilTheFetcherReachedTheSourcesEnd() throws Exception {
        RelayConfiguration configuration =
                RelayConfiguration.load(
                        Map.of(),
                        Map.of(
                                "source.type", "generated",
                                "source.transactions", Integer.toString(TRANSACTIONS),
                                "source.transactionPause", "50ms",
                                "buffer.capacity", "1MiB",
                                "buffer.segmentSize", "64KiB",
                                "state.directory", state.toString(),
                                "http.port", "0"));
        try (Relay relay = Relay.start(configuration)) {
            StreamClient client = new StreamClient(relay.httpPort());

            HttpResponse<String> health = client.getText("/v1/health");
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.body())
                    .contains("\"status\":\"CATCHING_UP\"")
                    .contains("\"position\":\"generated:")
                    .contains("\"lagScn\":");
            assertThat(relay.status().fetchState()).isEqualTo(RelayHealth.CATCHING_UP);
            assertThat(client.getText("/v1/status").body()).contains("CATCHING_UP");

            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> "RUNNING".equals(relay.status().fetchState()));
            assertThat(relay.status().lastPublishedScn())
                    .isGreaterThanOrEqualTo(10L * TRANSACTIONS);
            HttpResponse<String> caughtUp = client.getText("/v1/health");
            assertThat(caughtUp.statusCode()).isEqualTo(200);
            assertThat(caughtUp.body()).contains("\"fetcher\":\"RUNNING\"");
        }
    }
}
