package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferConfig;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A binary response of the whole stream is sent from the buffer's own memory, and a consumer that
 * reads it slowly still gets exactly the bytes appended, though the writer evicted their segment
 * meanwhile: the writer swapped a spare in rather than overwrite what was being sent, and did not
 * wait for the consumer.
 */
class StreamInPlaceTest {

    private static final int SEGMENT = 8 << 20;
    private static final int TRANSACTION_BYTES = 7_500_000;

    private final EventBuffer buffer =
            new EventBuffer(EventBufferConfig.direct(4L * SEGMENT, SEGMENT));
    private final SchemaRegistry registry = new SchemaRegistry();
    private final TableSchema blobs =
            registry.register(
                    "shop",
                    "blobs",
                    List.of(Column.of("id", ValueType.INT64), Column.of("data", ValueType.STRING)),
                    List.of("id"));
    private final FrameEncoder encoder = new FrameEncoder(TRANSACTION_BYTES + 4096);
    private Server server;
    private int port;

    @BeforeEach
    void startServer() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new StreamHandler(buffer, registry)); // http.zeroCopySegments: 1
        server.start();
        port = connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
        buffer.close();
    }

    @Test
    void shouldSendTheBytesAppendedWhenTheWriterEvictsTheirSegmentDuringASlowWrite()
            throws Exception {
        byte[] first = append(1);
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(8 * 1024); // the response waits on the consumer
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            send(socket, "/v1/stream?from=-1&timeoutMs=0&maxBytes=67108864");
            awaitValue(buffer::segmentsPinned, 1);

            // Four more segments' worth: entering the fifth evicts the one being sent.
            for (long scn = 2; scn <= 5; scn++) {
                append(scn);
            }
            assertThat(buffer.segmentsEvicted()).isEqualTo(1);
            assertThat(buffer.segmentsSwappedForReaders()).isEqualTo(1);

            byte[] body = readBody(socket.getInputStream());
            assertThat(body.length).isEqualTo(first.length);
            assertThat(body).as("the bytes appended, though evicted while sent").isEqualTo(first);
            ByteBuffer frames = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            CRC32C crc = new CRC32C();
            for (int at = 0; at < body.length; ) {
                at += FrameLayout.checkFrame(frames, at, body.length, crc);
            }
        }
        awaitValue(buffer::segmentsPinned, 0);
    }

    /** Appends a transaction of {@link #TRANSACTION_BYTES} at {@code scn}; returns its bytes. */
    private byte[] append(long scn) {
        encoder.buffer().clear();
        encoder.beginTransaction(1, scn, scn * 1000, "tx-" + scn);
        String data = Long.toString(scn).repeat(100_000 / Long.toString(scn).length());
        for (int row = 0; row < TRANSACTION_BYTES / 100_100; row++) {
            encoder.appendRowChange(Operation.INSERT, blobs, null, new Object[] {(long) row, data});
        }
        encoder.endTransaction();
        int length = encoder.buffer().position();
        ByteBuffer frames = encoder.buffer().byteBuffer();
        assertThat(buffer.append(scn, frames, 0, length)).isPositive();
        byte[] bytes = new byte[length];
        frames.get(0, bytes);
        return bytes;
    }

    private static void send(Socket socket, String target) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(
                ("GET " + target + " HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** The body of an HTTP/1.1 response with a Content-Length or chunked. */
    private static byte[] readBody(InputStream socketIn) throws IOException {
        DataInputStream in = new DataInputStream(socketIn);
        String status = line(in);
        assertThat(status).isEqualTo("HTTP/1.1 200 OK");
        long contentLength = -1;
        boolean chunked = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                contentLength = Long.parseLong(header.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (!chunked) {
            assertThat(contentLength).as("Content-Length").isNotNegative();
            byte[] bytes = new byte[(int) contentLength];
            in.readFully(bytes);
            return bytes;
        }
        for (int size = Integer.parseInt(line(in).trim(), 16);
                size > 0;
                size = Integer.parseInt(line(in).trim(), 16)) {
            byte[] chunk = new byte[size];
            in.readFully(chunk);
            body.write(chunk);
            line(in);
        }
        return body.toByteArray();
    }

    private static String line(DataInputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed in a line: " + line);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static void awaitValue(LongSupplier value, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (value.getAsLong() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10); // polling a condition with a deadline
        }
        assertThat(value.getAsLong()).isEqualTo(expected);
    }
}
