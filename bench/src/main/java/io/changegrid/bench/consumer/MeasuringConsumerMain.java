package io.changegrid.bench.consumer;

import io.changegrid.bench.harness.Partitioning;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.consumer.sink.CountingCallback;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.tls.TlsContexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A measuring consumer, run as its own JVM by {@link ConsumerFleet}: once told to go (a line on
 * stdin), reads its part of a relay's stream from the oldest event until its checkpoint reaches
 * {@code --end-scn}, printing {@code {"progress":N}} lines while it runs and one result line at the
 * end (events, bytes, the {@link System#nanoTime()} of its first and last event, its CPU between
 * them, its heap peak).
 *
 * <ul>
 *   <li>{@code binary}: the consumer library (puller, consumer buffer, dispatcher) with a callback
 *       that touches every event's header and bytes ({@link CountingCallback}).
 *   <li>{@code json}: long-poll {@code format=json} and parse every line ({@link
 *       JsonStreamReader}).
 * </ul>
 */
@Command(name = "measuring-consumer", mixinStandardHelpOptions = true)
public final class MeasuringConsumerMain implements Callable<Integer> {

    private static final long PROGRESS_NANOS = 250_000_000L;

    @Option(names = "--relay", required = true)
    String relay;

    @Option(names = "--partition")
    int partition;

    @Option(names = "--partitions")
    int partitions = 1;

    @Option(names = "--partitioning")
    String partitioning = "key";

    @Option(names = "--database", required = true)
    String database;

    @Option(names = "--format")
    String format = "binary";

    @Option(names = "--compression")
    String compression = "none";

    @Option(names = "--end-scn", required = true)
    long endScn;

    @Option(names = "--buffer-size")
    long bufferBytes = 64L << 20;

    /** The CA of {@code https://} relays ({@code bin/bench --tls}). */
    @Option(names = "--trust-store")
    Path trustStore;

    /** A file holding the bearer token for relays with tokens. */
    @Option(names = "--token-file")
    Path tokenFile;

    public static void main(String[] args) {
        System.exit(new CommandLine(new MeasuringConsumerMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        SelfMeter meter = new SelfMeter();
        Subscription subscription = subscription();
        boolean gzip = compression.equals("gzip");
        if (format.equals("json")) {
            String query =
                    subscription.filterJson() != null
                            ? JsonStreamReader.filter(subscription.filterJson())
                            : partitions > 1 ? "&p=" + partition + "&n=" + partitions : "";
            JsonStreamReader reader =
                    new JsonStreamReader(
                            relay,
                            query,
                            gzip,
                            TlsContexts.jdkClient(
                                    new TlsConfig(
                                            null, null, null, "", trustStore, "", ClientAuth.NONE)),
                            tokenFile == null ? null : Files.readString(tokenFile).trim());
            awaitGo(meter);
            Thread progress = progressPrinter(meter);
            reader.read(endScn, meter);
            meter.finish();
            progress.interrupt();
        } else {
            readBinary(subscription, gzip, meter);
        }
        System.out.println(meter.result());
        System.out.flush();
        return 0;
    }

    private Subscription subscription() {
        if (partitions == 1) {
            return Subscription.all();
        }
        if (Partitioning.valueOf(partitioning.toUpperCase(java.util.Locale.ROOT))
                == Partitioning.TABLE) {
            return new Subscription(
                            List.of(),
                            0,
                            1,
                            List.of(
                                    Map.of(
                                            "include",
                                            List.of(database + ".*"),
                                            "partition",
                                            Partitioning.TABLE.partitionEntry(partitions))))
                    .partition(partition, partitions);
        }
        return new Subscription(List.of(), partition, partitions);
    }

    private void readBinary(Subscription subscription, boolean gzip, SelfMeter meter)
            throws Exception {
        CountingCallback counter = new CountingCallback();
        ConsumerCallback timed =
                new ConsumerCallback() {
                    @Override
                    public CallbackResult onEvent(EventView event) {
                        meter.event(event.frameLength());
                        return counter.onEvent(event);
                    }

                    @Override
                    public CallbackResult onEndTransaction(TransactionInfo transaction) {
                        meter.transactionEnd();
                        return counter.onEndTransaction(transaction);
                    }
                };
        Consumer consumer =
                Consumer.builder()
                        .name("measuring-" + partition)
                        .relays(relay)
                        .subscription(subscription)
                        .callback(timed)
                        .checkpointStore(new InMemoryCheckpointStore())
                        .bufferCapacity(bufferBytes)
                        .fetchMaxBytes(4L << 20)
                        .batching(1000, Duration.ZERO)
                        // The relay may start after this process: look for it often.
                        .fetchBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
                        .set("fetch.gzip", gzip)
                        .set(
                                "relay.tls.trustStore",
                                trustStore == null ? "" : trustStore.toString())
                        // The library resolves the reference as any consumer's settings do.
                        .set(
                                "relay.token",
                                tokenFile == null
                                        ? ""
                                        : "${file:" + tokenFile.toAbsolutePath() + "}")
                        .build();
        awaitGo(meter);
        consumer.start();
        try {
            long lastProgress = 0;
            while (consumer.status().checkpointScn() < endScn) {
                if (consumer.failure().isPresent()) {
                    throw new IllegalStateException(
                            "measuring consumer failed: relay=" + relay, consumer.failure().get());
                }
                if (System.nanoTime() - lastProgress > PROGRESS_NANOS) {
                    lastProgress = System.nanoTime();
                    printProgress(meter);
                }
                Thread.sleep(2); // the end is the checkpoint; the times come from the callback
            }
            meter.finish();
        } finally {
            consumer.close();
        }
    }

    /**
     * Says it is ready (its first progress line) and waits for a line on stdin: the harness starts
     * all consumers of a run together, so JVM start-ups are not in the measured window.
     */
    private static void awaitGo(SelfMeter meter) throws java.io.IOException {
        printProgress(meter);
        new java.io.BufferedReader(
                        new java.io.InputStreamReader(
                                System.in, java.nio.charset.StandardCharsets.UTF_8))
                .readLine();
    }

    private static Thread progressPrinter(SelfMeter meter) {
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                while (!Thread.currentThread().isInterrupted()) {
                                    printProgress(meter);
                                    Thread.sleep(PROGRESS_NANOS / 1_000_000);
                                }
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt(); // done reading
                            }
                        },
                        "progress");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void printProgress(SelfMeter meter) {
        System.out.println("{\"progress\":" + meter.events() + "}");
        System.out.flush();
    }
}
