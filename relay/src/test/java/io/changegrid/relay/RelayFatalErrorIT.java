package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.relay.config.RelayConfiguration;
import io.changegrid.relay.process.FatalErrors;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@link Error} on the fetcher thread ends the relay's process with a last log line that says
 * so, rather than leaving a relay that answers with a dead fetcher; restarted, the relay continues
 * from its replay point with nothing lost or repeated. The error comes through the test-only
 * generated source ({@code source.errorAfter}), in a relay JVM of its own, since the process must
 * end.
 */
class RelayFatalErrorIT {

    private static final int TRANSACTIONS = 8;
    private static final int ERROR_AFTER = 5;

    @TempDir Path work;

    @Test
    void shouldEndTheProcessWithALastLineNamingTheErrorWhenTheFetcherThreadThrowsAnError()
            throws Exception {
        Path config = work.resolve("relay.yaml");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "source:",
                        "  type: generated",
                        "  transactions: " + TRANSACTIONS,
                        "  errorAfter: " + ERROR_AFTER,
                        "buffer:",
                        "  capacity: 1MiB",
                        "  segmentSize: 64KiB",
                        "  storage: mapped",
                        "  persistent: true",
                        "  directory: " + work.resolve("buffer"),
                        "state:",
                        "  directory: " + work.resolve("state"),
                        "http:",
                        "  port: 0",
                        ""));
        Path log = work.resolve("relay.log");

        try (JavaProcess relay = RelayJvm.start(config, log)) {
            assertThat(relay.process().waitFor(60, TimeUnit.SECONDS))
                    .as("relay ended; log:\n%s", relay.logTail())
                    .isTrue();
            assertThat(relay.process().exitValue()).isEqualTo(FatalErrors.EXIT_STATUS);
        }
        List<String> lines =
                Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                        .filter(line -> !line.isBlank())
                        .toList();
        String ending =
                lines.stream()
                        .filter(line -> line.startsWith("relay ending on a fatal error"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no fatal line in:\n" + lines));
        assertThat(ending)
                .contains("where=relay fetcher")
                .contains("OutOfMemoryError")
                .contains("source.errorAfter=" + ERROR_AFTER);
        // The logger's record of it (with the stack) follows; nothing the relay did after.
        assertThat(String.join("\n", lines.subList(lines.indexOf(ending), lines.size())))
                .doesNotContain("relay stopped")
                .doesNotContain("fetcher stopped on an error");

        // A supervisor restarts it (without the injected error): every transaction, once.
        RelayConfiguration restarted =
                RelayConfiguration.load(
                        Map.of(),
                        Map.of(
                                "source.type", "generated",
                                "source.transactions", Integer.toString(TRANSACTIONS),
                                "buffer.capacity", "1MiB",
                                "buffer.segmentSize", "64KiB",
                                "buffer.storage", "mapped",
                                "buffer.persistent", "true",
                                "buffer.directory", work.resolve("buffer").toString(),
                                "state.directory", work.resolve("state").toString(),
                                "http.port", "0"));
        try (Relay relay = Relay.start(restarted)) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> relay.status().lastPublishedScn() >= 10L * TRANSACTIONS);
            HttpResponse<byte[]> response =
                    new StreamClient(relay.httpPort()).get("/v1/stream?from=-1&timeoutMs=0");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(
                            StreamClient.frames(response.body()).stream()
                                    .filter(f -> f.operationCode() == Operation.INSERT.code())
                                    .map(StreamClient.Frame::scn)
                                    .toList())
                    .containsExactly(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L);
        }
    }
}
