package io.changegrid.bench.stage1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.testkit.MariaDbServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a relay as its own JVM over a binlog range that is already written, as the whitepaper's
 * stage 1 does, and measures it from outside: time from its first published transaction to the
 * last, events and bytes published, process CPU time, and the most heap it used.
 */
public final class RelayRun {

    /** What the relay did. */
    public record Result(
            long events,
            long bytes,
            double seconds,
            double secondsWithStartup,
            double cpuSeconds,
            long heapMaxUsed,
            String heapLimit) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What to do with the relay once it has caught up, before it is stopped (stage 2 reads it). */
    @FunctionalInterface
    public interface WhileServing {
        /**
         * @param firstPublishNanos when the relay published its first transaction, in {@link
         *     System#nanoTime()} (CLOCK_MONOTONIC on Linux: comparable across processes)
         */
        void run(String baseUrl, ProcessHandle relay, double bytesPerEvent, long firstPublishNanos)
                throws Exception;

        WhileServing NOTHING = (baseUrl, relay, bytesPerEvent, firstPublishNanos) -> {};
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<String> javaOptions;

    private final String storage;

    private final int port;

    public RelayRun(List<String> javaOptions, String storage) {
        this(javaOptions, storage, 0);
    }

    /** A relay run whose HTTP API listens on {@code port} (0: any free port). */
    RelayRun(List<String> javaOptions, String storage, int port) {
        this.javaOptions = List.copyOf(javaOptions);
        this.storage = storage;
        this.port = port;
    }

    public Result run(
            MariaDbServer server,
            BinlogPosition from,
            BinlogPosition to,
            long expectedEvents,
            Path work,
            String heap,
            long bufferBytes,
            WhileServing whileServing)
            throws Exception {
        int port = this.port != 0 ? this.port : freePort();
        Path shm = Path.of("/dev/shm");
        Path config = work.resolve("relay.yaml");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "source:",
                        "  host: " + server.host(),
                        "  port: " + server.port(),
                        "  user: " + server.user(),
                        "  password: " + server.password(),
                        "  serverId: 7001",
                        "  start: " + from,
                        "capture:",
                        "  include: [bench.*]",
                        "buffer:",
                        "  capacity: " + bufferBytes + "B",
                        "  segmentSize: 64MiB",
                        "  storage: " + storage,
                        "  directory: " + (Files.isDirectory(shm) ? shm : work),
                        "state:",
                        "  directory: " + work.resolve("relay-state"),
                        "http:",
                        "  port: " + port,
                        ""));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long startNanos = System.nanoTime();
        List<String> command =
                new ArrayList<>(
                        List.of(
                                java,
                                "-Xmx" + heap,
                                "-Xms" + heap,
                                "-XX:+UseG1GC",
                                "-XX:+AlwaysPreTouch",
                                "-XX:MaxDirectMemorySize=" + (bufferBytes + (256L << 20))));
        command.addAll(javaOptions);
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        "io.changegrid.relay.RelayMain",
                        "--config",
                        config.toString()));
        System.err.println(
                "relay command: "
                        + String.join(" ", command.subList(0, command.indexOf("-cp")))
                        + " ...");
        Process relay =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(work.resolve("relay.log").toFile())
                        .start();
        try {
            String base = "http://127.0.0.1:" + port;
            ProgressLine progress = new ProgressLine(System.err, "relay", expectedEvents);
            long firstNanos = 0;
            long heapMax = 0;
            long lastMetricsNanos = 0;
            double events = 0;
            double bytes = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
            while (true) {
                if (!relay.isAlive()) {
                    throw new IllegalStateException(
                            "relay exited: code="
                                    + relay.exitValue()
                                    + ", log="
                                    + work.resolve("relay.log"));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "relay did not finish in 30 minutes: log=" + work.resolve("relay.log"));
                }
                JsonNode status = getJson(base + "/v1/status");
                if (status == null) {
                    Thread.sleep(20);
                    continue;
                }
                JsonNode fetch = status.get("fetch");
                if ("FAILED".equals(fetch.get("state").asText())) {
                    throw new IllegalStateException(
                            "relay fetcher failed: " + fetch.get("error").asText());
                }
                if (firstNanos == 0 && fetch.get("lastPublishedScn").asLong() >= 0) {
                    firstNanos = System.nanoTime();
                }
                boolean done =
                        BinlogPosition.parse(fetch.get("position").asText()).scn() >= to.scn();
                if (done || System.nanoTime() - lastMetricsNanos > 250_000_000L) {
                    lastMetricsNanos = System.nanoTime();
                    String metrics = getText(base + "/metrics");
                    heapMax =
                            Math.max(
                                    heapMax,
                                    (long) sum(metrics, "jvm_memory_used_bytes{area=\"heap\""));
                    events = sum(metrics, "changegrid_relay_published_events_total");
                    bytes = sum(metrics, "changegrid_relay_published_bytes_total");
                    progress.report((long) events);
                }
                if (done) {
                    long endNanos = System.nanoTime();
                    double cpu = cpuSeconds(relay.toHandle());
                    whileServing.run(
                            base, relay.toHandle(), bytes / Math.max(1, events), firstNanos);
                    return new Result(
                            (long) events,
                            (long) bytes,
                            (endNanos - firstNanos) / 1e9,
                            (endNanos - startNanos) / 1e9,
                            cpu,
                            heapMax,
                            heap);
                }
                Thread.sleep(20);
            }
        } finally {
            relay.destroy();
            relay.waitFor();
        }
    }

    /** The CPU time a process has used so far, in seconds. */
    static double cpuSeconds(ProcessHandle process) {
        return process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
    }

    private static double sum(String metrics, String prefix) {
        return metrics.lines()
                .filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    private JsonNode getJson(String url) throws InterruptedException {
        String text = getText(url);
        try {
            return text == null ? null : JSON.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    private String getText(String url) throws InterruptedException {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null; // not listening yet
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
