package io.changegrid.relay.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.relay.process.FatalErrors;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@link Error} on a thread serving a request ends the relay's process with a last line naming
 * the path, rather than becoming one more 500 while the relay carries on with a heap it cannot
 * trust ({@link FatalErrorHandler}). The error comes from {@link ServingErrorServer}, the relay's
 * own HTTP server in a JVM of its own.
 */
class ServingErrorIT {

    @TempDir Path work;

    @Test
    void shouldEndTheProcessNamingThePathWhenAServingThreadThrowsAnError() throws Exception {
        Path log = work.resolve("server.log");
        try (JavaProcess server =
                JavaProcess.start(
                        JavaProcess.command(
                                List.of("-Xmx128m"), ServingErrorServer.class.getName(), List.of()),
                        log)) {
            int port =
                    Awaitility.await()
                            .atMost(Duration.ofSeconds(30))
                            .until(() -> port(log), p -> p > 0);

            assertThatThrownBy(
                            () ->
                                    HttpClient.newHttpClient()
                                            .send(
                                                    HttpRequest.newBuilder(
                                                                    URI.create(
                                                                            "http://127.0.0.1:"
                                                                                    + port
                                                                                    + "/v1/status"))
                                                            .timeout(Duration.ofSeconds(10))
                                                            .build(),
                                                    HttpResponse.BodyHandlers.ofString()))
                    .as("no answer: the process ended while serving")
                    .isInstanceOf(IOException.class);
            assertThat(server.process().waitFor(30, TimeUnit.SECONDS))
                    .as("server ended; log:\n%s", server.logTail())
                    .isTrue();
            assertThat(server.process().exitValue()).isEqualTo(FatalErrors.EXIT_STATUS);
        }
        assertThat(Files.readAllLines(log, StandardCharsets.UTF_8))
                .anySatisfy(
                        line ->
                                assertThat(line)
                                        .startsWith("relay ending on a fatal error")
                                        .contains("where=http request: path=/v1/status")
                                        .contains("OutOfMemoryError"));
    }

    private static int port(Path log) throws IOException {
        if (!Files.exists(log)) {
            return 0;
        }
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith("port="))
                .mapToInt(line -> Integer.parseInt(line.substring("port=".length()).trim()))
                .findFirst()
                .orElse(0);
    }
}
