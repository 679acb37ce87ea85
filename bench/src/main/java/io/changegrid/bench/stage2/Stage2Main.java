package io.changegrid.bench.stage2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.bench.stage1.StageSource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The whitepaper's stage 2 (relay to consumer) on this machine: whitepaper-shaped inserts (~1,100
 * bytes, 3 tables) are preloaded into a relay process's buffer through the real path (private
 * MariaDB, binlog, relay); then, for each mode, a separate consumer JVM reads them all from the
 * oldest and reports the time from its first event to its last, with both processes' CPU.
 */
@Command(
        name = "stage2",
        mixinStandardHelpOptions = true,
        description =
                "Stage 2 benchmark: relay event buffer to consumer callback, separate processes.")
public final class Stage2Main implements Callable<Integer> {

    @Option(
            names = "--rows",
            description = "Rows inserted (= events preloaded). Default: ${DEFAULT-VALUE}.")
    long rows = 600_000;

    @Option(
            names = "--modes",
            split = ",",
            description =
                    "Consumer modes: binary-plain, binary-gzip, json-plain, json-gzip. Default: all.")
    List<String> modes = List.of("binary-plain", "binary-gzip", "json-plain", "json-gzip");

    @Option(
            names = "--results",
            description = "File the JSON result lines are appended to. Default: ${DEFAULT-VALUE}.")
    Path results = Path.of("bench/results/stage2.jsonl");

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) {
        System.exit(new CommandLine(new Stage2Main()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<String> lines = new ArrayList<>();
        int cores = Runtime.getRuntime().availableProcessors();
        StageSource.runInsertsThroughRelay(
                rows,
                (relayUrl, relay, bytesPerEvent, firstPublishNanos) -> {
                    for (String mode : modes) {
                        String[] parts = mode.split("-");
                        double relayCpuBefore = cpuSeconds(relay);
                        JsonNode result = runConsumer(relayUrl, parts[0], parts[1]);
                        double relayCpu = cpuSeconds(relay) - relayCpuBefore;
                        double seconds = result.get("seconds").asDouble();
                        double eventsPerSec = rows / seconds;
                        String line =
                                String.format(
                                        Locale.ROOT,
                                        "{\"stage\":\"stage2\",\"time\":\"%s\",\"cores\":%d,\"mode\":\"%s\",\"events\":%d,"
                                                + "\"seconds\":%.3f,\"eventsPerSec\":%.0f,\"mbPerSec\":%.1f,\"consumerCpuSeconds\":%.2f,"
                                                + "\"relayCpuSeconds\":%.2f,\"eventBytes\":%.0f}",
                                        Instant.now(),
                                        cores,
                                        mode,
                                        rows,
                                        seconds,
                                        eventsPerSec,
                                        rows * bytesPerEvent / 1e6 / seconds,
                                        result.get("cpuSeconds").asDouble(),
                                        relayCpu,
                                        bytesPerEvent);
                        System.err.println("stage 2 " + mode + ": " + line);
                        lines.add(line);
                    }
                });
        System.out.printf(
                Locale.ROOT,
                "%nStage 2 (relay to consumer), %d events of whitepaper shape, %d cores%n",
                rows,
                cores);
        System.out.printf(
                Locale.ROOT,
                "%-14s %10s %12s %10s %16s %14s%n",
                "mode",
                "seconds",
                "events/s",
                "MB/s",
                "consumer CPU s",
                "relay CPU s");
        Files.createDirectories(results.toAbsolutePath().getParent());
        for (String line : lines) {
            JsonNode row = JSON.readTree(line);
            System.out.printf(
                    Locale.ROOT,
                    "%-14s %10.2f %,12.0f %10.1f %16.2f %14.2f%n",
                    row.get("mode").asText(),
                    row.get("seconds").asDouble(),
                    row.get("eventsPerSec").asDouble(),
                    row.get("mbPerSec").asDouble(),
                    row.get("consumerCpuSeconds").asDouble(),
                    row.get("relayCpuSeconds").asDouble());
            System.out.println(line);
            Files.writeString(
                    results,
                    line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        return 0;
    }

    private JsonNode runConsumer(String relayUrl, String format, String compression)
            throws Exception {
        return ConsumerProcess.run(
                Stage2ConsumerMain.class,
                List.of(relayUrl, Long.toString(rows), format, compression));
    }

    private static double cpuSeconds(ProcessHandle process) {
        return process.info().totalCpuDuration().orElse(java.time.Duration.ZERO).toNanos() / 1e9;
    }
}
