package io.changegrid.bench.stage1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.bench.harness.Machine;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayOptions;
import io.changegrid.bench.relay.RelayPlan;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.protocol.RelayApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Stage 1 with {@code --source-type goldengate}: the whitepaper's GoldenGate run (its relay read a
 * GoldenGate trail) on GoldenGate for Big Data's JSON files. The load is written as a trail first
 * ({@link GoldenGateTrail}, not timed); then the bare read and parse of the files ({@link
 * BareTrailReader}, the ceiling) and one relay process with {@code source.type: goldengate}, which
 * starts on an empty directory and is timed from the moment the files are moved in to the moment
 * its position reaches the trail's last record.
 */
final class GoldenGateStage1 {

    private static final long POLL_MILLIS = 20;

    private GoldenGateStage1() {}

    static int run(LoadShape shape, RelayOptions relayOptions, int repeat, Path results)
            throws Exception {
        List<ObjectNode> lines = new ArrayList<>();
        try (WorkDirectory work = WorkDirectory.create("stage1-goldengate")) {
            System.err.printf(
                    Locale.ROOT,
                    "goldengate: writing %,d row changes as JSON trail files ...%n",
                    shape.records());
            GoldenGateTrail trail = GoldenGateTrail.write(shape, work.newPart("trail-staging"));
            System.err.printf(
                    Locale.ROOT,
                    "goldengate: %,d events, %,.1f MB in %d files, last pos %s%n",
                    trail.events(),
                    trail.bytes() / 1e6,
                    trail.files().size(),
                    trail.lastPos());
            for (int r = 1; r <= repeat; r++) {
                BareTrailReader.Result bare = BareTrailReader.run(trail);
                ObjectNode bareLine = line(shape, trail, "bare JSON read+parse (ceiling)");
                ResultFile.putThroughput(
                        bareLine,
                        bare.lines(),
                        trail.events(),
                        bare.seconds(),
                        bare.bytes(),
                        bare.cpuSeconds());
                record(lines, bareLine, results);
                RelayPlan plan = relayOptions.ingestPlan(1, shape, 1.0, List.of());
                record(lines, relay(shape, trail, plan, work.newPart("relay-" + r)), results);
            }
            work.succeeded();
        }
        System.out.println("Stage 1 (GoldenGate JSON trail files to relay event buffer)");
        System.out.printf(
                Locale.ROOT,
                "%-34s %12s %10s %8s %8s%n",
                "configuration",
                "events/s",
                "MB/s",
                "cpu",
                "counts");
        int status = 0;
        for (ObjectNode line : lines) {
            boolean counts = line.get("countsMatch").asBoolean();
            status |= counts ? 0 : 1;
            System.out.printf(
                    Locale.ROOT,
                    "%-34s %,12d %10.1f %8.2f %8s%n",
                    line.get("configuration").asText(),
                    line.get("eventsPerSec").asLong(),
                    line.get("mbPerSec").asDouble(),
                    line.get("cpu").asDouble(),
                    counts ? "ok" : "MISMATCH");
        }
        System.out.println(
                "MB/s counts the JSON files' bytes. Cores: "
                        + Machine.cores()
                        + ", "
                        + Machine.cpuModel());
        return status;
    }

    private static ObjectNode relay(
            LoadShape shape, GoldenGateTrail trail, RelayPlan plan, Path work) throws Exception {
        Path directory = Files.createDirectories(work.resolve("dirout"));
        int port = RelayFleet.freePorts(1).get(0);
        Path config = work.resolve("relay.yaml");
        Files.writeString(config, ResultFile.toText(config(shape, plan, directory, port, work)));
        List<String> jvm = new ArrayList<>();
        jvm.add("-XX:MaxDirectMemorySize=" + (plan.bufferBytes() + (256L << 20)));
        for (String option : plan.javaOptions()) { // --relay-java-options, e.g. a JFR recording
            jvm.add(option.replace("{relay}", "0").replace("{run}", work.getFileName().toString()));
        }
        List<String> command =
                BenchJvm.command(
                        plan.heap(),
                        jvm,
                        "io.changegrid.relay.RelayMain",
                        List.of("--config", config.toString()));
        Path log = work.resolve("relay.log");
        HttpClient http = HttpClient.newHttpClient();
        String status = RelayFleet.url(port) + RelayApi.STATUS;
        Process process = JavaProcess.start(command, log).process();
        try {
            while (fetch(http, status) == null) {
                check(process, log);
                Thread.sleep(POLL_MILLIS);
            }
            double cpuBefore = JavaProcess.cpuSeconds(process.toHandle());
            long start = System.nanoTime();
            for (Path file : trail.files()) {
                // In the order written: the fetcher starts at the earliest file it sees.
                Files.move(file, directory.resolve(file.getFileName()));
            }
            while (true) {
                check(process, log);
                JsonNode fetch = fetch(http, status);
                if (fetch != null) {
                    if ("FAILED".equals(fetch.path("state").asText())) {
                        throw new IllegalStateException(
                                "relay fetcher failed: "
                                        + fetch.path("error").asText()
                                        + ", log="
                                        + log);
                    }
                    if (fetch.path("position").asText().startsWith(trail.lastPos())) {
                        break;
                    }
                }
                Thread.sleep(POLL_MILLIS);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = JavaProcess.cpuSeconds(process.toHandle()) - cpuBefore;
            ObjectNode line = line(shape, trail, "1 relay, source.type goldengate");
            ResultFile.putThroughput(
                    line, trail.events(), trail.events(), seconds, trail.bytes(), cpu);
            line.put("heapLimit", plan.heap());
            line.put("bufferBytes", plan.bufferBytes());
            return line;
        } finally {
            JavaProcess.stop(process);
            for (Path file : listed(directory)) { // back, for the next repetition
                Files.move(file, trail.directory().resolve(file.getFileName()));
            }
        }
    }

    private static List<Path> listed(Path directory) throws java.io.IOException {
        try (var files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }

    private static ObjectNode config(
            LoadShape shape, RelayPlan plan, Path directory, int port, Path work) {
        ObjectNode root = ResultFile.JSON.createObjectNode();
        ObjectNode source = root.putObject("source");
        source.put("type", "goldengate");
        source.put("directory", directory.toString());
        var tables = source.putArray("tables");
        GoldenGateTrail.tableEntries(shape).forEach(tables::add);
        source.put("heartbeatInterval", "100ms");
        source.put("pollInterval", "2ms");
        root.putObject("capture").putArray("include").add(GoldenGateTrail.SCHEMA + ".*");
        ObjectNode buffer = root.putObject("buffer");
        buffer.put("capacity", plan.bufferBytes() + "B");
        buffer.put("segmentSize", "64MiB");
        buffer.put("storage", plan.storage());
        Path shm = Path.of("/dev/shm");
        buffer.put("directory", (Files.isDirectory(shm) ? shm : work).toString());
        root.putObject("state").put("directory", work.resolve("state").toString());
        root.putObject("http").put("port", port);
        return root;
    }

    /** The status's {@code fetch} object, or null while the relay does not answer. */
    static JsonNode fetch(HttpClient http, String url) throws InterruptedException {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200
                    ? ResultFile.JSON.readTree(response.body()).get("fetch")
                    : null;
        } catch (java.io.IOException e) {
            return null; // not listening yet
        }
    }

    static void check(Process process, Path log) {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    "relay exited: code=" + process.exitValue() + ", log=" + log);
        }
    }

    private static ObjectNode line(LoadShape shape, GoldenGateTrail trail, String configuration) {
        ObjectNode line = ResultFile.newLine("stage1");
        line.put("source", "goldengate-json");
        line.put("sourceType", "goldengate"); // report leaves these out of the MySQL tables
        line.put("configuration", configuration);
        line.put("records", shape.records());
        line.put("recordSize", shape.recordSize());
        line.put("tables", shape.tables());
        line.put("transactionSize", shape.transactionSize());
        line.put("fileBytes", trail.bytes());
        return line;
    }

    private static void record(List<ObjectNode> lines, ObjectNode line, Path results)
            throws Exception {
        lines.add(line);
        ResultFile.append(results, line);
        System.err.println(ResultFile.toText(line));
    }
}
