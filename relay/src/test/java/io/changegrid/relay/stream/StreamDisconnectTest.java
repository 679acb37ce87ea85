package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.IntSupplier;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Parked long-polls and the connection under them: a poll longer than the connector's idle timeout
 * still gets its empty answer, and a consumer that goes away leaves nothing registered with the
 * buffer once its poll's timeout has passed.
 */
class StreamDisconnectTest {

    private static final long IDLE_TIMEOUT_MS = 300;

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(64 * 1024, 16 * 1024));
    private Server server;
    private int port;

    @BeforeEach
    void startServer() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setPort(0);
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        server.addConnector(connector);
        server.setHandler(new StreamHandler(buffer, new SchemaRegistry()));
        server.start();
        port = connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
        buffer.close();
    }

    @Test
    void shouldAnswerEmptyWhenPollOutlastsConnectorIdleTimeout() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            send(socket, "/v1/stream?from=0&timeoutMs=1500");
            BufferedReader in =
                    new BufferedReader(
                            new InputStreamReader(
                                    socket.getInputStream(), StandardCharsets.US_ASCII));

            assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
        }
        awaitValue(buffer::listenerCount, 0, Duration.ofSeconds(5));
    }

    /**
     * Jetty notices a closed connection under a parked GET only when it writes to it (an append
     * wakes the request) or when the poll's own timeout answers: with no append, the timeout is
     * what ends it. Until then the registration costs a listener call per append, nothing else.
     */
    @Test
    void shouldUnregisterParkedRequestOfConsumerThatWentAwayByItsTimeoutAtTheLatest()
            throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            send(socket, "/v1/stream?from=0&timeoutMs=1000");
            awaitValue(buffer::listenerCount, 1, Duration.ofSeconds(5));
        }

        awaitValue(buffer::listenerCount, 0, Duration.ofSeconds(5));
    }

    private static void send(Socket socket, String target) throws Exception {
        OutputStream out = socket.getOutputStream();
        out.write(
                ("GET " + target + " HTTP/1.1\r\nHost: relay\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static void awaitValue(IntSupplier value, int expected, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (value.getAsInt() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(value.getAsInt()).as("listeners registered with the buffer").isEqualTo(expected);
    }
}
