package io.changegrid.bench.latency;

import io.changegrid.bench.consumer.InMemoryCheckpointStore;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.EventView;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The measuring consumer of the latency run, its own JVM: for every insert into {@code
 * <database>.latency} it takes {@code System.nanoTime()} minus the {@code sent} column the load
 * generator wrote just before committing (CLOCK_MONOTONIC on Linux, so comparable across the two
 * processes), and after {@code count} rows prints p50/p90/p99/p99.9/max in milliseconds as one JSON
 * line.
 *
 * <pre>java -cp bench.jar io.changegrid.bench.latency.LatencyConsumerMain URL WARMUP COUNT
 * </pre>
 *
 * <p>Rows with ids up to {@code WARMUP} are not counted.
 */
public final class LatencyConsumerMain {

    private LatencyConsumerMain() {}

    public static void main(String[] args) throws Exception {
        String relay = args[0];
        int warmup = Integer.parseInt(args[1]);
        int count = Integer.parseInt(args[2]);
        long[] latencies = new long[count];
        int[] seen = {0};
        CountDownLatch done = new CountDownLatch(1);
        CheckpointStore store = new InMemoryCheckpointStore();
        Consumer consumer =
                Consumer.builder()
                        .name("latency")
                        .relays(relay)
                        .callback(
                                (EventView event) -> {
                                    long now = System.nanoTime();
                                    if (seen[0] < count
                                            && event.operation().isRowChange()
                                            && event.table().equals("latency")
                                            && ((Number) event.get("id")).longValue() > warmup) {
                                        latencies[seen[0]++] =
                                                now - ((Number) event.get("sent")).longValue();
                                        if (seen[0] == count) {
                                            done.countDown();
                                        }
                                    }
                                    return CallbackResult.SUCCESS;
                                })
                        .checkpointStore(store)
                        .pollTimeout(Duration.ofSeconds(30))
                        .batching(1, Duration.ZERO)
                        .build();
        consumer.start();
        System.out.println("{\"ready\":true}");
        System.out.flush();
        try {
            if (!done.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException(
                        "latency consumer saw " + seen[0] + " of " + count + " rows");
            }
        } finally {
            consumer.close();
        }
        Arrays.sort(latencies);
        System.out.printf(
                Locale.ROOT,
                "{\"count\":%d,\"p50Ms\":%.3f,\"p90Ms\":%.3f,\"p99Ms\":%.3f,\"p999Ms\":%.3f,\"maxMs\":%.3f}%n",
                count,
                percentile(latencies, 0.50),
                percentile(latencies, 0.90),
                percentile(latencies, 0.99),
                percentile(latencies, 0.999),
                latencies[count - 1] / 1e6);
    }

    private static double percentile(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]
                / 1e6;
    }
}
