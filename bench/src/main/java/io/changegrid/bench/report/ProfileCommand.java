package io.changegrid.bench.report;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Where a relay's or consumer's CPU went, from a JFR recording (e.g. {@code --relay-java-options
 * -XX:StartFlightRecording=filename=relay-{relay}.jfr,settings=profile}): execution samples by
 * thread, and the busiest thread's samples by component. A sample belongs to the first frame from
 * the top whose class is one of ours or the binlog library's, so time in the JDK counts for the
 * code that called it (a SHA-256 digest for the policy that masks).
 */
@Command(
        name = "profile",
        mixinStandardHelpOptions = true,
        description = "Summarizes a JFR recording: CPU samples by thread and by component.")
public final class ProfileCommand implements Callable<Integer> {

    /** Package or class prefixes and the component they stand for, most specific first. */
    private static final Map<String, String> COMPONENTS = components();

    @Parameters(paramLabel = "RECORDING", description = "A .jfr file.")
    Path recording;

    @Option(
            names = "--thread",
            description = "The thread whose samples are split by component (default: the busiest).")
    String thread;

    @Override
    public Integer call() throws Exception {
        Map<String, Integer> byThread = new TreeMap<>();
        Map<String, Map<String, Integer>> byComponent = new TreeMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            String name = event.getThread("sampledThread").getJavaName();
            byThread.merge(name, 1, Integer::sum);
            byComponent
                    .computeIfAbsent(name, key -> new TreeMap<>())
                    .merge(component(event.getStackTrace().getFrames()), 1, Integer::sum);
        }
        int total = byThread.values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf(Locale.ROOT, "%s: %d execution samples%n%n", recording, total);
        print("thread", byThread, total);
        String busiest =
                thread != null
                        ? thread
                        : byThread.entrySet().stream()
                                .max(Map.Entry.comparingByValue())
                                .map(Map.Entry::getKey)
                                .orElse("");
        Map<String, Integer> components = byComponent.getOrDefault(busiest, Map.of());
        System.out.println();
        print(
                "component of " + busiest,
                components,
                components.values().stream().mapToInt(Integer::intValue).sum());
        return 0;
    }

    private static void print(String title, Map<String, Integer> counts, int total) {
        System.out.printf(Locale.ROOT, "| %s | samples | share |%n|---|---:|---:|%n", title);
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(
                        entry ->
                                System.out.printf(
                                        Locale.ROOT,
                                        "| %s | %d | %.0f %% |%n",
                                        entry.getKey(),
                                        entry.getValue(),
                                        100.0 * entry.getValue() / Math.max(1, total)));
    }

    static String component(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            for (Map.Entry<String, String> entry : COMPONENTS.entrySet()) {
                if (type.startsWith(entry.getKey())) {
                    return entry.getValue();
                }
            }
        }
        return "JDK / other";
    }

    private static Map<String, String> components() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("io.changegrid.policy.transform", "policies: transform (mask, add, rename)");
        map.put("io.changegrid.policy.select", "policies: row predicate");
        // Encodes what the routes let through: the transaction assembly every fetcher shares.
        map.put("io.changegrid.policy.capture.TransactionWriter", "transaction assembly");
        map.put("io.changegrid.policy", "policies: routing, partitioning");
        map.put("io.changegrid.fetchers.mysql.RowTranscoder", "rows read in place");
        map.put("io.changegrid.fetchers.mysql.StoredBytes", "rows read in place");
        map.put("io.changegrid.fetchers.mysql.RowConverter", "row conversion");
        map.put("io.changegrid.fetchers.mysql.TemporalCells", "row conversion");
        map.put("io.changegrid.fetchers.mysql.Lossless", "binlog row deserialization (ours)");
        map.put("io.changegrid.fetchers.mysql.BinlogRows", "binlog row deserialization (ours)");
        map.put("io.changegrid.fetchers", "transaction assembly");
        map.put("io.changegrid.events.frame", "frame encoding");
        map.put("io.changegrid.events", "event values");
        map.put("io.changegrid.relay.buffer", "event buffer");
        map.put("io.changegrid.relay.publish", "publisher");
        map.put("io.changegrid.relay.stream", "HTTP stream serving");
        map.put("io.changegrid.relay", "relay other");
        map.put("io.changegrid.consumer.pull", "consumer puller");
        map.put("io.changegrid.consumer.dispatch", "consumer dispatch");
        map.put("io.changegrid.consumer", "consumer other");
        map.put("io.changegrid.bench", "benchmark callback");
        map.put("com.github.shyiko.mysql.binlog", "binlog library (read, deserialize)");
        map.put("org.eclipse.jetty", "Jetty HTTP");
        return map;
    }
}
