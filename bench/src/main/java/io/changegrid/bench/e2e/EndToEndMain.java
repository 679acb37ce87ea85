package io.changegrid.bench.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.bench.stage1.StageSource;
import io.changegrid.bench.stage2.ConsumerProcess;
import io.changegrid.bench.stage2.Stage2ConsumerMain;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The whitepaper's end-to-end run (Table 3) on this machine: the binlog is written first, then a
 * relay process and a consumer process start together; the time is the consumer's, from its first
 * event to its last — binlog, relay and consumer callback all in the path, MariaDB on the same 2
 * cores.
 */
@Command(
        name = "e2e",
        mixinStandardHelpOptions = true,
        description =
                "End-to-end benchmark: binlog to relay to consumer callback, separate processes.")
public final class EndToEndMain implements Callable<Integer> {

    @Option(names = "--rows", description = "Rows inserted (= events). Default: ${DEFAULT-VALUE}.")
    long rows = 600_000;

    @Option(
            names = "--results",
            description = "File the JSON result line is appended to. Default: ${DEFAULT-VALUE}.")
    Path results = Path.of("bench/results/e2e.jsonl");

    public static void main(String[] args) {
        System.exit(new CommandLine(new EndToEndMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        int port = StageSource.freePort();
        String relayUrl = "http://127.0.0.1:" + port;
        AtomicReference<CompletableFuture<JsonNode>> consumer = new AtomicReference<>();
        double[] relayCpu = new double[1];
        StageSource.runInsertsThroughRelay(
                rows,
                port,
                new io.changegrid.bench.stage1.RelayRun.WhileServing() {
                    @Override
                    public void run(
                            String baseUrl,
                            ProcessHandle relay,
                            double bytesPerEvent,
                            long firstPublishNanos)
                            throws Exception {
                        JsonNode result = consumer.get().get(15, TimeUnit.MINUTES);
                        relayCpu[0] =
                                relay.info().totalCpuDuration().orElse(Duration.ZERO).toNanos()
                                        / 1e9;
                        report(result, bytesPerEvent, relayCpu[0], firstPublishNanos);
                    }
                },
                () -> consumer.set(CompletableFuture.supplyAsync(() -> runConsumer(relayUrl))));
        return 0;
    }

    private JsonNode runConsumer(String relayUrl) {
        try {
            return ConsumerProcess.run(
                    Stage2ConsumerMain.class,
                    List.of(relayUrl, Long.toString(rows), "binary", "plain"));
        } catch (Exception e) {
            throw new IllegalStateException("end-to-end consumer failed", e);
        }
    }

    private void report(
            JsonNode consumer, double bytesPerEvent, double relayCpu, long firstPublishNanos)
            throws Exception {
        // From the relay's first published transaction to the consumer's last event: the whole
        // path, whenever the consumer process got going.
        double seconds = (consumer.get("lastNanos").asLong() - firstPublishNanos) / 1e9;
        String line =
                String.format(
                        Locale.ROOT,
                        "{\"stage\":\"e2e\",\"time\":\"%s\",\"cores\":%d,\"events\":%d,\"seconds\":%.3f,\"eventsPerSec\":%.0f,"
                                + "\"mbPerSec\":%.1f,\"consumerCpuSeconds\":%.2f,\"relayCpuSeconds\":%.2f}",
                        Instant.now(),
                        Runtime.getRuntime().availableProcessors(),
                        rows,
                        seconds,
                        rows / seconds,
                        rows * bytesPerEvent / 1e6 / seconds,
                        consumer.get("cpuSeconds").asDouble(),
                        relayCpu);
        System.out.printf(
                Locale.ROOT,
                "%nEnd to end (binlog -> relay -> consumer callback): %,d events in %.2f s ="
                        + " %,.0f events/s%n%s%n",
                rows,
                seconds,
                rows / seconds,
                line);
        Files.createDirectories(results.toAbsolutePath().getParent());
        Files.writeString(
                results,
                line + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
