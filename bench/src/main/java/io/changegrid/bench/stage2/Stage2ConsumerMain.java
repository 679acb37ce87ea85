package io.changegrid.bench.stage2;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.sink.CountingCallback;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

/**
 * The measured consumer of stage 2, run as its own JVM by {@link Stage2Main}: reads {@code events}
 * events from the oldest the relay holds and prints one JSON line with the time from the first
 * event to the last and this process's CPU time.
 *
 * <ul>
 *   <li>{@code binary}: the consumer library (puller, consumer buffer, dispatcher) with a callback
 *       that touches every event's header and bytes, as {@link CountingCallback} does.
 *   <li>{@code json}: what a consumer in another language does: long-poll {@code format=json} and
 *       parse every line with a streaming JSON parser.
 * </ul>
 *
 * <pre>
 * java -cp benchmarks.jar io.changegrid.bench.stage2.Stage2ConsumerMain URL EVENTS binary|json gzip|plain
 * </pre>
 */
public final class Stage2ConsumerMain {

    private Stage2ConsumerMain() {}

    public static void main(String[] args) throws Exception {
        String relay = args[0];
        long events = Long.parseLong(args[1]);
        boolean json = args[2].equals("json");
        boolean gzip = args[3].equals("gzip");
        long[] firstLast = json ? readJson(relay, events, gzip) : readBinary(relay, events, gzip);
        double seconds = (firstLast[1] - firstLast[0]) / 1e9;
        double cpu =
                ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toNanos()
                        / 1e9;
        System.out.printf(
                Locale.ROOT,
                "{\"events\":%d,\"bytes\":%d,\"seconds\":%.4f,\"cpuSeconds\":%.3f,\"firstNanos\":%d,\"lastNanos\":%d}%n",
                events,
                firstLast[2],
                seconds,
                cpu,
                firstLast[0],
                firstLast[1]);
    }

    private static long[] readBinary(String relay, long events, boolean gzip) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CountingCallback counter = new CountingCallback();
        long[] firstLast = new long[3];
        ConsumerCallback timed =
                new ConsumerCallback() {
                    @Override
                    public CallbackResult onEvent(EventView event) {
                        if (firstLast[0] == 0) {
                            firstLast[0] = System.nanoTime();
                        }
                        return counter.onEvent(event);
                    }

                    @Override
                    public CallbackResult onEndTransaction(TransactionInfo transaction) {
                        CallbackResult result = counter.onEndTransaction(transaction);
                        if (counter.events() >= events && firstLast[1] == 0) {
                            firstLast[1] = System.nanoTime();
                            firstLast[2] = counter.bytes();
                            done.countDown();
                        }
                        return result;
                    }
                };
        CheckpointStore inMemory = new InMemoryCheckpointStore();
        Consumer consumer =
                Consumer.builder()
                        .name("stage2")
                        .relays(relay)
                        .callback(timed)
                        .checkpointStore(inMemory)
                        .bufferCapacity(64L << 20)
                        .fetchMaxBytes(4L << 20)
                        .batching(1000, Duration.ZERO)
                        .set("fetch.gzip", gzip)
                        .build();
        consumer.start();
        try {
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException(
                        "stage-2 consumer did not see every event: counted="
                                + counter.events()
                                + ", expected="
                                + events
                                + ", failure="
                                + consumer.failure());
            }
        } finally {
            consumer.close();
        }
        return firstLast;
    }

    private static long[] readJson(String relay, long events, boolean gzip) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        JsonFactory factory = new JsonFactory();
        long counted = 0;
        long bytes = 0;
        long checkpoint = -1;
        long[] firstLast = new long[3];
        while (counted < events) {
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(
                            URI.create(
                                    relay
                                            + "/v1/stream?from="
                                            + checkpoint
                                            + "&format=json&timeoutMs=1000&maxBytes=4194304"));
            if (gzip) {
                request.header("Accept-Encoding", "gzip");
            }
            HttpResponse<InputStream> response =
                    http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "relay answered " + response.statusCode() + ": from=" + checkpoint);
            }
            InputStream body =
                    response.headers().firstValue("Content-Encoding").orElse("").equals("gzip")
                            ? new GZIPInputStream(response.body(), 1 << 16)
                            : response.body();
            try (JsonParser parser = factory.createParser(body)) {
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    boolean row = false;
                    while (parser.nextToken() != JsonToken.END_OBJECT) {
                        String field = parser.currentName();
                        JsonToken value = parser.nextToken();
                        if ("op".equals(field)) {
                            String op = parser.getText();
                            row = op.equals("INSERT") || op.equals("UPDATE") || op.equals("DELETE");
                        }
                        if (value.isStructStart()) {
                            parser.skipChildren();
                        }
                    }
                    if (row) {
                        if (firstLast[0] == 0) {
                            firstLast[0] = System.nanoTime();
                        }
                        counted++;
                    }
                }
                bytes += parser.currentLocation().getByteOffset();
            }
            checkpoint =
                    Long.parseLong(
                            response.headers().firstValue("X-Changegrid-Last-Scn").orElseThrow());
        }
        firstLast[1] = System.nanoTime();
        firstLast[2] = bytes;
        return firstLast;
    }
}
