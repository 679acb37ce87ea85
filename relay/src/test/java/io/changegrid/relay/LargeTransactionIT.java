package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.gridkit.server.FreePort;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.testkit.MariaDbExtension;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction many times larger than a buffer segment goes through a relay whose heap is far
 * smaller than it (issue 20, section 3): the relay, in its own JVM at {@code -Xmx96m} with {@code
 * buffer.transactionParts} on, publishes it in parts into mapped segments on disk; a reader that
 * takes one part per response at most ({@code maxBytes} of one segment) gets every event of it
 * exactly once, numbered 0..n-1 across the parts, ends with the one END_OF_TRANSACTION without
 * {@link FrameLayout#FLAG_CONTINUED}, and its checkpoint ({@code X-Changegrid-Last-Scn}) stays
 * before the transaction until the last part. A reader that restarts from its checkpoint in the
 * middle gets the transaction again from its first event.
 *
 * <p>Scaled for {@code mvn verify}: 200 MB through 8 MiB segments. The full size: {@code
 * -Dchangegrid.largeTransaction.bytes=2g -Dchangegrid.largeTransaction.segment=64MiB} (needs about
 * 3 GB of disk in {@code java.io.tmpdir} for the buffer files and as much for the binlog).
 */
class LargeTransactionIT {

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            new MariaDbExtension(
                    MariaDbConfig.builder().extraOption("--max-allowed-packet=64M").build());

    private static final long TRANSACTION_BYTES =
            bytes(System.getProperty("changegrid.largeTransaction.bytes", "200m"));
    private static final String SEGMENT =
            System.getProperty("changegrid.largeTransaction.segment", "8MiB");
    private static final int ROW_BYTES = 100_000;

    @TempDir Path work;

    @Test
    void shouldDeliverEveryEventOnceAndInOrderWhenATransactionIsManySegmentsLarge()
            throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.blobs (id INT PRIMARY KEY, data LONGBLOB)");
        long segmentBytes = bytes(SEGMENT.replace("iB", ""));
        int rows = (int) (TRANSACTION_BYTES / ROW_BYTES);
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
                        "  serverId: 9203",
                        "  heartbeatInterval: 1h",
                        "capture:",
                        "  include: [shop.blobs]",
                        "buffer:",
                        // Room for the transaction, two segments and some.
                        "  capacity: " + capacity(segmentBytes),
                        "  segmentSize: " + SEGMENT,
                        "  storage: mapped",
                        "  directory: " + work.resolve("buffer"),
                        "  transactionParts: true",
                        "state:",
                        "  directory: " + work.resolve("state"),
                        "http:",
                        "  port: " + port,
                        ""));
        Files.createDirectories(work.resolve("buffer"));
        Path log =
                Path.of(
                        System.getProperty("java.io.tmpdir"),
                        "changegrid-large-transaction-it.log");
        Files.deleteIfExists(log);
        StreamClient client = new StreamClient(port);
        try (JavaProcess relay =
                RelayJvm.start(config, log, List.of("-Xmx96m", "-XX:MaxDirectMemorySize=64m"))) {
            awaitHealthy(client, relay);
            long start = StreamClient.lastScn(client.get("/v1/stream?from=-1&timeoutMs=0"));
            HeapWatch heap = new HeapWatch(client);
            Thread watcher = new Thread(heap, "heap-watch");
            watcher.start();

            insert(rows);

            // A reader that stops after three parts, then restarts from its checkpoint.
            Reading first = read(client, start, segmentBytes, 3);
            assertThat(first.checkpoint)
                    .as("checkpoint while inside the transaction")
                    .isLessThan(first.transactionScn);
            assertThat(first.events).isPositive().isLessThan(rows);
            Reading again = read(client, first.checkpoint, segmentBytes, Integer.MAX_VALUE);
            heap.stop();
            watcher.join();

            System.out.printf(
                    "LargeTransactionIT bytes=%d, segment=%s, rows=%d, parts=%d, maxHeapBytes=%d%n",
                    TRANSACTION_BYTES, SEGMENT, rows, again.parts, heap.max.get());
            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
            assertThat(again.events).as("row events, each index once, in order").isEqualTo(rows);
            assertThat(again.firstIndex).as("the restart began at the first event").isZero();
            assertThat(again.parts).isGreaterThan((int) (TRANSACTION_BYTES / segmentBytes));
            assertThat(again.checkpoint).isEqualTo(first.transactionScn);
            assertThat(heap.max.get())
                    .as("most heap the relay used, sampled from /metrics")
                    .isLessThan(TRANSACTION_BYTES / 2)
                    .isLessThan(96L << 20);
        }
    }

    /** What one reader saw of the transaction. */
    private record Reading(
            long checkpoint, int events, int parts, int firstIndex, long transactionScn) {}

    /**
     * Reads the stream from {@code from}, a part at a time, until the transaction's last part or
     * until {@code maxParts} part ends were seen; checks that its events come numbered 0, 1, ...
     * with no gap or repeat.
     */
    private static Reading read(StreamClient client, long from, long maxBytes, int maxParts)
            throws Exception {
        long checkpoint = from;
        int parts = 0;
        int held = 0;
        int next = 0;
        int firstIndex = -1;
        long transactionScn = -1;
        EventFrame frame = new EventFrame();
        CRC32C crc = new CRC32C();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (System.nanoTime() < deadline) {
            HttpResponse<byte[]> response =
                    client.get(
                            "/v1/stream?from="
                                    + checkpoint
                                    + "&parts="
                                    + held
                                    + "&timeoutMs=30000&maxBytes="
                                    + maxBytes);
            assertThat(response.statusCode()).as(new String(response.body())).isEqualTo(200);
            byte[] body = response.body();
            ByteBuffer bytes = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
            for (int at = 0; at < body.length; at += frame.length()) {
                FrameLayout.checkFrame(bytes, at, body.length, crc);
                frame.wrap(bytes, at);
                if (frame.operation() == Operation.HEARTBEAT) {
                    continue;
                }
                if (transactionScn < 0) {
                    transactionScn = frame.scn();
                }
                assertThat(frame.scn()).as("one transaction").isEqualTo(transactionScn);
                if (firstIndex < 0) {
                    firstIndex = frame.index();
                    next = firstIndex;
                }
                assertThat(frame.index()).as("event index at offset %d", at).isEqualTo(next);
                if (frame.operation() != Operation.END_OF_TRANSACTION) {
                    next++;
                } else if (frame.continues()) {
                    parts++;
                } else {
                    parts++;
                    checkpoint = StreamClient.lastScn(response);
                    assertThat(checkpoint).isEqualTo(transactionScn);
                    return new Reading(
                            checkpoint, next - firstIndex, parts, firstIndex, transactionScn);
                }
            }
            checkpoint = StreamClient.lastScn(response);
            held =
                    response.headers()
                            .firstValue("X-Changegrid-Parts")
                            .map(Integer::parseInt)
                            .orElse(0);
            if (parts >= maxParts) {
                return new Reading(
                        checkpoint,
                        next - Math.max(firstIndex, 0),
                        parts,
                        firstIndex,
                        transactionScn);
            }
        }
        throw new AssertionError("transaction not read in time: parts=" + parts + ", next=" + next);
    }

    /** Inserts {@code rows} rows of {@link #ROW_BYTES} in one transaction. */
    private static void insert(int rows) throws Exception {
        try (Connection connection = MARIADB.server().connect();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO shop.blobs VALUES (?, ?)")) {
            connection.setAutoCommit(false);
            byte[] data = new byte[ROW_BYTES];
            for (int i = 0; i < rows; i++) {
                data[i % ROW_BYTES] = (byte) i;
                insert.setInt(1, i);
                insert.setBytes(2, data);
                insert.executeUpdate();
            }
            connection.commit();
        }
    }

    private static String capacity(long segmentBytes) {
        long needed = TRANSACTION_BYTES * 5 / 4 + 4 * segmentBytes;
        long segments = (needed + segmentBytes - 1) / segmentBytes;
        return (segments * segmentBytes >> 20) + "MiB";
    }

    /** "200m", "2g", "8M" as bytes (binary units). */
    private static long bytes(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = 1;
        if (t.endsWith("g")) {
            unit = 1L << 30;
        } else if (t.endsWith("m")) {
            unit = 1L << 20;
        } else if (t.endsWith("k")) {
            unit = 1L << 10;
        }
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
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

    /** Samples the relay's heap until stopped. */
    private static final class HeapWatch implements Runnable {
        final StreamClient client;
        final AtomicLong max = new AtomicLong();
        volatile boolean stopped;

        HeapWatch(StreamClient client) {
            this.client = client;
        }

        void stop() {
            stopped = true;
        }

        @Override
        public void run() {
            while (!stopped) {
                try {
                    long used =
                            (long)
                                    client.getText("/metrics")
                                            .body()
                                            .lines()
                                            .filter(
                                                    l ->
                                                            l.startsWith(
                                                                    "jvm_memory_used_bytes{area=\"heap\""))
                                            .mapToDouble(
                                                    l ->
                                                            Double.parseDouble(
                                                                    l.substring(
                                                                            l.lastIndexOf(' ')
                                                                                    + 1)))
                                            .sum();
                    max.accumulateAndGet(used, Math::max);
                    Thread.sleep(50); // a sampling interval, not a wait for a condition
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    // A missed sample: the next one counts.
                }
            }
        }
    }
}
