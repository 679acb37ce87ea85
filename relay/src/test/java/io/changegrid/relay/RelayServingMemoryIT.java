package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.gridkit.server.FreePort;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.testkit.MariaDbExtension;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Serving memory is bounded whatever consumers ask for: a relay in its own JVM at {@code -Xmx256m}
 * with 32 MiB segments, 40 consumers parked at {@code maxBytes} 64 MiB, then a 1 KiB transaction
 * and a 30 MB one. Without the serving budget, the 40 wake-ups would copy 40 × 30 MB into the heap
 * at once; with it (a quarter of the heap by default), every consumer still gets every frame, the
 * heap stays under 200 MB and {@code /v1/health} stays 200 throughout, whether the responses are
 * sent in place from the buffer or copied.
 */
class RelayServingMemoryIT {

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            new MariaDbExtension(
                    MariaDbConfig.builder().extraOption("--max-allowed-packet=64M").build());

    private static final int CONSUMERS = 40;
    private static final int MAX_BYTES = 64 << 20;
    private static final int BIG_ROWS = 30;
    private static final int BIG_ROW_BYTES = 1_000_000;
    private static final long HEAP_LIMIT = 200L << 20;

    @TempDir Path work;

    /**
     * With {@code http.zeroCopySegments} 1 (the default) every response here is sent in place from
     * the buffer's segment; with 0 each is copied within the serving memory.
     */
    @ParameterizedTest(name = "zeroCopySegments={0}")
    @ValueSource(ints = {1, 0})
    void shouldServeEveryParkedPollWithinTheHeapWhenA30MbTransactionWakesThemAll(
            int zeroCopySegments) throws Exception {
        MARIADB.server()
                .execute(
                        // One server for both runs: a database each.
                        "CREATE DATABASE shop" + zeroCopySegments,
                        "CREATE TABLE shop"
                                + zeroCopySegments
                                + ".blobs (id INT PRIMARY KEY, data LONGBLOB)");
        int port = FreePort.pick();
        Path config = work.resolve("relay.yaml");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "source:",
                        "  host: " + MARIADB.server().host(),
                        "  port: " + MARIADB.server().port(),
                        "  user: " + MARIADB.server().user(),
                        "  password: " + MARIADB.server().password(),
                        "  serverId: 9202",
                        "  heartbeatInterval: 1h",
                        "capture:",
                        "  include: [shop" + zeroCopySegments + ".blobs]",
                        "buffer:",
                        "  capacity: 64MiB",
                        "  segmentSize: 32MiB",
                        "state:",
                        "  directory: " + work.resolve("state"),
                        "http:",
                        "  port: " + port,
                        "  zeroCopySegments: " + zeroCopySegments,
                        ""));
        Path log =
                Path.of(System.getProperty("java.io.tmpdir"), "changegrid-serving-memory-it.log");
        Files.deleteIfExists(log);
        StreamClient client = new StreamClient(port);
        ExecutorService consumers = Executors.newFixedThreadPool(CONSUMERS);
        try (JavaProcess relay = RelayJvm.start(config, log)) {
            awaitHealthy(client, relay);
            long start = StreamClient.lastScn(client.get("/v1/stream?from=-1&timeoutMs=0"));
            Watch watch = new Watch(client);
            Thread watcher = new Thread(watch, "heap-watch");
            watcher.start();
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int i = 0; i < CONSUMERS; i++) {
                results.add(consumers.submit(() -> consume(port, start)));
            }

            awaitParked(client, relay, CONSUMERS);
            String table = "shop" + zeroCopySegments + ".blobs";
            insert(table, 1, 1024, 1);
            awaitParked(client, relay, CONSUMERS); // each got it and polls again
            insert(table, 2, BIG_ROW_BYTES, BIG_ROWS);

            List<List<Long>> bodies = new ArrayList<>();
            for (Future<List<Long>> result : results) {
                bodies.add(result.get(3, TimeUnit.MINUTES));
            }
            watch.stop();
            watcher.join();

            System.out.printf(
                    "RelayServingMemoryIT zeroCopySegments=%d, maxHeapBytes=%d,"
                            + " maxServingMemoryBytes=%d, samples=%d, unhealthy=%d, bodies=%s%n",
                    zeroCopySegments,
                    watch.maxHeap.get(),
                    watch.maxServingMemory.get(),
                    watch.samples.get(),
                    watch.unhealthy.get(),
                    bodies.get(0));
            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
            for (List<Long> lengths : bodies) {
                assertThat(lengths).as("bytes of each response").hasSize(2);
                assertThat(lengths.get(0)).isBetween(1024L, 64L << 10);
                assertThat(lengths.get(1)).isGreaterThan((long) BIG_ROWS * BIG_ROW_BYTES);
            }
            assertThat(bodies).as("every consumer got the same frames").containsOnly(bodies.get(0));
            assertThat(watch.unhealthy.get()).as("/v1/health answers other than 200").isZero();
            assertThat(watch.samples.get()).isPositive();
            assertThat(watch.maxHeap.get())
                    .as("most heap used, in bytes, sampled from /metrics")
                    .isLessThan(HEAP_LIMIT);
            if (zeroCopySegments > 0) {
                assertThat(watch.maxServingMemory.get()).as("bytes copied: none").isZero();
            }
        } finally {
            consumers.shutdownNow();
        }
    }

    /**
     * One consumer: long-polls from {@code checkpoint} until it has had two responses with
     * transactions in them; returns their body lengths. Reads each body as a stream, so the test's
     * own heap holds none of them.
     */
    private static List<Long> consume(int port, long checkpoint) throws IOException {
        List<Long> lengths = new ArrayList<>();
        long from = checkpoint;
        while (lengths.size() < 2) {
            URI uri =
                    URI.create(
                            "http://127.0.0.1:"
                                    + port
                                    + "/v1/stream?from="
                                    + from
                                    + "&timeoutMs=120000&maxBytes="
                                    + MAX_BYTES);
            HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
            connection.setReadTimeout((int) Duration.ofMinutes(3).toMillis());
            int status = connection.getResponseCode();
            if (status != 200) {
                throw new IllegalStateException("stream answered " + status + ": from=" + from);
            }
            long length = 0;
            byte[] chunk = new byte[64 * 1024];
            try (InputStream body = connection.getInputStream()) {
                for (int n; (n = body.read(chunk)) >= 0; ) {
                    length += n;
                }
            }
            from = Long.parseLong(connection.getHeaderField("X-Changegrid-Last-Scn"));
            if (length > 0) {
                lengths.add(length);
            }
        }
        return lengths;
    }

    /**
     * Inserts {@code rows} rows of {@code bytes} each from id {@code first}, in one transaction.
     */
    private static void insert(String table, int first, int bytes, int rows) throws Exception {
        try (Connection connection = MARIADB.server().connect();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
            connection.setAutoCommit(false);
            byte[] data = new byte[bytes];
            for (int i = 0; i < rows; i++) {
                data[0] = (byte) i;
                insert.setInt(1, first * 1000 + i);
                insert.setBytes(2, data);
                insert.executeUpdate();
            }
            connection.commit();
        }
    }

    private static void awaitHealthy(StreamClient client, JavaProcess relay) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(100, TimeUnit.MILLISECONDS)
                .ignoreExceptions()
                .until(
                        () -> {
                            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
                            return client.getText("/v1/health").statusCode() == 200;
                        });
    }

    private static void awaitParked(StreamClient client, JavaProcess relay, int parked) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(50, TimeUnit.MILLISECONDS)
                .until(
                        () -> {
                            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
                            return metric(client, "changegrid_relay_stream_parked") == parked;
                        });
    }

    /** The sum of a metric's samples whose line starts with {@code prefix}. */
    private static double metric(StreamClient client, String prefix) throws Exception {
        return client.getText("/metrics")
                .body()
                .lines()
                .filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** Samples the relay's heap and health until stopped. */
    private static final class Watch implements Runnable {
        final StreamClient client;
        final AtomicLong maxHeap = new AtomicLong();
        final AtomicLong maxServingMemory = new AtomicLong();
        final AtomicInteger unhealthy = new AtomicInteger();
        final AtomicInteger samples = new AtomicInteger();
        volatile boolean stopped;

        Watch(StreamClient client) {
            this.client = client;
        }

        void stop() {
            stopped = true;
        }

        @Override
        public void run() {
            while (!stopped) {
                try {
                    long heap = (long) metric(client, "jvm_memory_used_bytes{area=\"heap\"");
                    maxHeap.accumulateAndGet(heap, Math::max);
                    long copies = (long) metric(client, "changegrid_relay_stream_memory_used");
                    maxServingMemory.accumulateAndGet(copies, Math::max);
                    if (client.getText("/v1/health").statusCode() != 200) {
                        unhealthy.incrementAndGet();
                    }
                    samples.incrementAndGet();
                    Thread.sleep(20); // a sampling interval, not a wait for a condition
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    unhealthy.incrementAndGet(); // no answer counts as not healthy
                }
            }
        }
    }
}
