package io.changegrid.relay;

import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/** A minimal HTTP client of a relay's API for tests: raw requests and checked frame parsing. */
final class StreamClient {

    /** One frame from a stream response, its header fields read out. */
    record Frame(long scn, int index, int operationCode, int tableId) {}

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    StreamClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    HttpResponse<byte[]> get(String pathAndQuery) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<byte[]> get(String pathAndQuery, String header, String value)
            throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                        .header(header, value)
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<String> post(String path) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> getText(String pathAndQuery) throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Checks every frame of a binary body and reads its header. */
    static List<Frame> frames(byte[] body) {
        ByteBuffer bytes = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        EventFrame frame = new EventFrame();
        CRC32C crc = new CRC32C();
        List<Frame> frames = new ArrayList<>();
        for (int offset = 0; offset < body.length; offset += frame.length()) {
            FrameLayout.checkFrame(bytes, offset, body.length, crc);
            frame.wrap(bytes, offset);
            frames.add(
                    new Frame(frame.scn(), frame.index(), frame.operationCode(), frame.tableId()));
        }
        return frames;
    }

    static long lastScn(HttpResponse<?> response) {
        return Long.parseLong(response.headers().firstValue("X-Changegrid-Last-Scn").orElseThrow());
    }
}
