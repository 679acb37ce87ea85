package io.changegrid.fetchers.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.gridkit.goldengate.TrailFileWriter;
import io.changegrid.gridkit.goldengate.TrailOperation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fetcher reading while grid-kit's {@link TrailFileWriter} writes the way the File Writer
 * handler does: small files rolled by size and time and renamed when finalized, lines written in
 * two halves, trail sequence numbers moving on. Every row arrives exactly once, in increasing SCN
 * order, with its transaction whole, also across stops and restarts at the resume position.
 */
class FollowingTheFileWriterTest {

    private static final List<String> ORDERS =
            List.of("SHOP.ORDERS(ID NUMBER(10) key, NOTE VARCHAR2(200))");

    @TempDir Path dir;

    /** Writes {@code transactions} transactions of 1..3 inserts on its own thread. */
    private static final class Workload implements AutoCloseable {
        final TrailFileWriter writer;
        final Map<Long, Integer> sizes = new HashMap<>(); // first id -> rows in its transaction
        final Thread thread;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        volatile long ids;

        Workload(TrailFileWriter writer, int transactions, long seed) {
            this.writer = writer;
            this.thread =
                    new Thread(
                            () -> {
                                Random random = new Random(seed);
                                try {
                                    long id = 1;
                                    for (int t = 0; t < transactions; t++) {
                                        int rows = 1 + random.nextInt(3);
                                        List<TrailOperation> ops = new ArrayList<>();
                                        synchronized (sizes) {
                                            sizes.put(id, rows);
                                        }
                                        for (int r = 0; r < rows; r++, id++) {
                                            Map<String, Object> after = new LinkedHashMap<>();
                                            after.put("ID", id);
                                            after.put(
                                                    "NOTE",
                                                    "order "
                                                            + id
                                                            + " "
                                                            + "x".repeat(random.nextInt(150)));
                                            ops.add(
                                                    TrailOperation.insert(
                                                            "SHOP.ORDERS", List.of("ID"), after));
                                        }
                                        writer.write(
                                                "x." + t,
                                                Integer.toString(1000 + t),
                                                Instant.now(),
                                                ops);
                                        ids = id - 1;
                                        if (t % 50 == 0) {
                                            Thread.sleep(1);
                                        }
                                    }
                                    writer.close();
                                } catch (Throwable e) {
                                    failure.set(e);
                                }
                            },
                            "test-file-writer");
            thread.start();
        }

        void await() throws InterruptedException {
            thread.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(failure.get()).isNull();
        }

        @Override
        public void close() {
            thread.interrupt();
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private TrailFileWriter.Options options(boolean txind) {
        return TrailFileWriter.Options.in(dir)
                .withRolling(8 * 1024, Duration.ofMillis(40))
                .withSplitLines(true)
                .withTrail(7, 48 * 1024)
                .withTransactionIndicator(txind);
    }

    @ParameterizedTest(name = "transaction indicator: {0}")
    @ValueSource(booleans = {false, true})
    void shouldFollowRollsAndRenamesWithoutLossOrRepeatWhenReadingWhileTheWriterWrites(
            boolean txind) throws Exception {
        long seed = System.nanoTime();
        List<CollectingSink.Published> published = new ArrayList<>();
        try (var workload = new Workload(new TrailFileWriter(options(txind)), 3000, seed);
                var running =
                        RunningFetcher.start(
                                RunningFetcher.config(dir, ORDERS, txind ? "txind" : ""), null)) {
            workload.await();
            awaitRow(running, workload.ids);
            published.addAll(running.sink.transactions());
            assertThat(workload.writer.finalizedFiles()).as("seed=" + seed).isGreaterThan(10);
            assertExactlyOnce(published, workload, seed);
        }
    }

    @Test
    void shouldLoseAndRepeatNothingWhenStoppedAndRestartedAtItsResumePositionWhileFilesRoll()
            throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        List<CollectingSink.Published> published = new ArrayList<>();
        String resume = null;
        try (var workload = new Workload(new TrailFileWriter(options(false)), 4000, seed)) {
            for (int restart = 0; restart < 6; restart++) {
                try (var running =
                        RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), resume)) {
                    Thread.sleep(20 + random.nextInt(60));
                    running.stopAndJoin();
                    assertThat(running.failure()).as("seed=" + seed).isNull();
                    published.addAll(running.sink.transactions());
                    if (!published.isEmpty()) {
                        resume = published.get(published.size() - 1).resumePosition();
                    }
                }
            }
            workload.await();
            try (var running =
                    RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), resume)) {
                awaitTrailEnd(running, published, workload.ids);
                published.addAll(running.sink.transactions());
            }
            assertExactlyOnce(published, workload, seed);
        }
    }

    /**
     * Waits until the last fetcher has read the whole trail: it published the last row, or a
     * fetcher before it did and this one idles at the trail's end (a heartbeat). A fast writer may
     * finish while the restarts are still going on, and then the last fetcher has nothing left to
     * publish.
     */
    private static void awaitTrailEnd(
            RunningFetcher running, List<CollectingSink.Published> before, long lastId) {
        boolean publishedBefore =
                before.stream()
                        .flatMap(t -> t.rowEvents().stream())
                        .anyMatch(e -> e.key()[0].equals(lastId));
        if (!publishedBefore) {
            awaitRow(running, lastId);
            return;
        }
        awaitSink(
                running,
                sink -> sink.all().stream().anyMatch(CollectingSink.Published::isHeartbeat));
    }

    private static void awaitRow(RunningFetcher running, long id) {
        awaitSink(running, sink -> sink.rowEvents().stream().anyMatch(e -> e.key()[0].equals(id)));
    }

    /** Waits until the fetcher's sink shows {@code done}, failing at once if the fetcher fails. */
    private static void awaitSink(RunningFetcher running, Predicate<CollectingSink> done) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(
                        () -> {
                            assertThat(running.failure()).isNull();
                            return done.test(running.sink);
                        });
    }

    private static void assertExactlyOnce(
            List<CollectingSink.Published> published, Workload workload, long seed) {
        Map<Long, Integer> seen = new HashMap<>();
        long previous = -1;
        for (CollectingSink.Published transaction : published) {
            assertThat(transaction.scn()).as("seed=" + seed).isGreaterThan(previous);
            previous = transaction.scn();
            List<ChangeEvent> rows = transaction.rowEvents();
            long first = (Long) rows.get(0).key()[0];
            assertThat(rows)
                    .as("whole transaction, seed=" + seed)
                    .hasSize(workload.sizes.get(first));
            for (ChangeEvent row : rows) {
                seen.merge((Long) row.key()[0], 1, Integer::sum);
            }
        }
        assertThat(seen).as("seed=" + seed).hasSize((int) workload.ids);
        assertThat(seen.values()).as("every row exactly once, seed=" + seed).containsOnly(1);
    }
}
