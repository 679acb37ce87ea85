package io.changegrid.bench.stage1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.bench.harness.Machine;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayHttp;
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
import java.util.OptionalLong;

/**
 * Stage 1 with {@code --source-type postgresql}: the load written into a private PostgreSQL with
 * nothing replicating ({@link PostgresLoad}, not timed); then, over the same WAL, each repetition
 * runs the bare pgjdbc reader ({@link BarePgOutputReader}, the ceiling) and one relay process with
 * {@code source.type: postgresql}, each on its own copy of a slot made before the load. The relay
 * is timed from the first poll that sees it published to the first that sees it published the
 * load's last transaction (the commit LSN the bare reader saw last); the events in between are
 * counted from its metrics.
 */
final class PostgresStage1 {

    private static final long POLL_MILLIS = 20;
    private static final Duration LIMIT = Duration.ofMinutes(30);

    private PostgresStage1() {}

    static int run(LoadShape shape, RelayOptions relayOptions, int repeat, Path results)
            throws Exception {
        List<ObjectNode> lines = new ArrayList<>();
        try (WorkDirectory work = WorkDirectory.create("stage1-postgresql");
                PostgresLoad source = PostgresLoad.write(shape)) {
            long expected = source.load().events();
            for (int r = 1; r <= repeat; r++) {
                String bareSlot = source.copySlot("bench_bare_" + r);
                BarePgOutputReader.Result bare =
                        BarePgOutputReader.run(
                                source,
                                bareSlot,
                                expected,
                                relayOptions.heap(),
                                work.newPart("bare-" + r).resolve("bare.log"));
                source.dropSlot(bareSlot);
                ObjectNode bareLine = line(shape, source, "bare pgjdbc pgoutput reader");
                ResultFile.putThroughput(
                        bareLine,
                        bare.rows(),
                        expected,
                        bare.seconds(),
                        bare.bytes(),
                        bare.cpuSeconds());
                putServerCpu(bareLine, bare.serverCpuSeconds(), bare.seconds());
                record(lines, bareLine, results);
                RelayPlan plan = relayOptions.ingestPlan(1, shape, 1.0, List.of());
                String relaySlot = source.copySlot("bench_relay_" + r);
                ObjectNode relayLine =
                        relay(shape, source, bare, plan, relaySlot, work.newPart("relay-" + r));
                source.dropSlot(relaySlot);
                record(lines, relayLine, results);
            }
            work.succeeded();
        }
        return print(lines);
    }

    private static ObjectNode relay(
            LoadShape shape,
            PostgresLoad source,
            BarePgOutputReader.Result bare,
            RelayPlan plan,
            String slot,
            Path work)
            throws Exception {
        int port = RelayFleet.freePorts(1).get(0);
        Path config = work.resolve("relay.yaml");
        Files.writeString(config, ResultFile.toText(config(source, plan, slot, port, work)));
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
        RelayHttp metricsHttp = new RelayHttp();
        String status = RelayFleet.url(port) + RelayApi.STATUS;
        String metrics = RelayFleet.url(port) + "/metrics";
        Process process = JavaProcess.start(command, log).process();
        try {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            long previousNanos = System.nanoTime(); // the last poll that saw nothing published
            double previousCpu = 0;
            long firstNanos = 0;
            double cpuFirst = 0;
            long transactionsFirst = 0;
            long transactionsDone;
            ProcessHandle walSender = null;
            double serverCpuFirst = 0;
            long doneNanos;
            double cpuDone;
            while (true) {
                GoldenGateStage1.check(process, log);
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "relay did not finish in " + LIMIT + ": log=" + log);
                }
                JsonNode answer = status(http, status);
                long now = System.nanoTime();
                double cpuNow = JavaProcess.cpuSeconds(process.toHandle());
                if (answer != null) {
                    JsonNode fetch = answer.path("fetch");
                    if ("FAILED".equals(fetch.path("state").asText())) {
                        throw new IllegalStateException(
                                "relay fetcher failed: "
                                        + fetch.path("error").asText()
                                        + ", log="
                                        + log);
                    }
                    long published = fetch.path("lastPublishedScn").asLong(-1);
                    long transactions = answer.path("buffer").path("transactionsAppended").asLong();
                    boolean atEnd = published >= bare.lastCommitLsn();
                    if (firstNanos == 0 && atEnd) {
                        // A load small enough to go between two polls: the window is theirs.
                        firstNanos = previousNanos;
                        cpuFirst = previousCpu;
                    } else if (firstNanos == 0 && published >= 0) {
                        // The window opens here; what the relay published before is not in it.
                        firstNanos = now;
                        cpuFirst = cpuNow;
                        transactionsFirst = transactions;
                        walSender = walSender(source, slot);
                        serverCpuFirst = walSender == null ? 0 : JavaProcess.cpuSeconds(walSender);
                    } else if (firstNanos == 0) {
                        previousNanos = now;
                        previousCpu = cpuNow;
                    }
                    if (atEnd) {
                        doneNanos = now;
                        cpuDone = cpuNow;
                        transactionsDone = transactions;
                        break;
                    }
                }
                Thread.sleep(POLL_MILLIS); // polling a process we do not control
            }
            double seconds = (doneNanos - firstNanos) / 1e9;
            double cpu = cpuDone - cpuFirst;
            double serverCpu =
                    walSender == null ? -1 : JavaProcess.cpuSeconds(walSender) - serverCpuFirst;
            double events = publishedEvents(metricsHttp, metrics);
            double frameBytes =
                    RelayHttp.sum(
                            metricsHttp.text(metrics), "changegrid_relay_published_bytes_total");
            // The load's transactions are all the same size: the window's events are its share
            // of the transactions (from the same status answers as its ends).
            long inWindow =
                    Math.round(
                            events
                                    * (transactionsDone - transactionsFirst)
                                    / (double) Math.max(1, transactionsDone));
            ObjectNode line = line(shape, source, "1 relay, source.type postgresql");
            // MB/s counts the same pgoutput bytes as the bare reader's, over the relay's window.
            ResultFile.putThroughput(
                    line,
                    (long) events,
                    source.load().events(),
                    seconds,
                    bare.bytes() * (inWindow / (double) Math.max(1, (long) events)),
                    cpu);
            line.put("eventsPerSec", Math.round(inWindow / seconds));
            line.put("eventBytes", Math.round(bare.bytes() / (double) bare.rows()));
            line.put("eventsInWindow", inWindow);
            line.put("frameBytes", (long) frameBytes);
            putServerCpu(line, serverCpu, seconds);
            line.put("heapLimit", plan.heap());
            line.put("bufferBytes", plan.bufferBytes());
            double bareRate = bare.rows() / bare.seconds();
            line.put("bareEventsPerSec", Math.round(bareRate));
            line.put("ratio", ResultFile.round(inWindow / seconds / bareRate, 3));
            return line;
        } finally {
            JavaProcess.stop(process);
        }
    }

    /** The relay's {@code /v1/status}, or null while it does not answer. */
    private static JsonNode status(HttpClient http, String url) throws InterruptedException {
        try {
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? ResultFile.JSON.readTree(response.body()) : null;
        } catch (java.io.IOException e) {
            return null; // not listening yet, or cut short while it stops
        }
    }

    private static double publishedEvents(RelayHttp http, String url) throws InterruptedException {
        String text = http.text(url);
        if (text == null) {
            throw new IllegalStateException("relay metrics unanswered: url=" + url);
        }
        return RelayHttp.sum(text, "changegrid_relay_published_events_total");
    }

    private static ProcessHandle walSender(PostgresLoad source, String slot)
            throws java.sql.SQLException {
        OptionalLong pid = source.walSenderPid(slot);
        return pid.isPresent() ? ProcessHandle.of(pid.getAsLong()).orElse(null) : null;
    }

    private static ObjectNode config(
            PostgresLoad source, RelayPlan plan, String slot, int port, Path work) {
        ObjectNode root = ResultFile.JSON.createObjectNode();
        ObjectNode node = root.putObject("source");
        node.put("type", "postgresql");
        node.put("host", source.host());
        node.put("port", source.port());
        node.put("database", PostgresLoad.DATABASE);
        node.put("user", source.user());
        node.put("slot", slot);
        node.put("publication", PostgresLoad.PUBLICATION);
        node.put("createPublication", false);
        node.put("start", source.from());
        node.put("heartbeatInterval", "100ms");
        root.putObject("capture").putArray("include").add(PostgresLoad.SCHEMA + ".*");
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

    /** The WAL sender's cores (the server's decoding), when it could be measured. */
    private static void putServerCpu(ObjectNode line, double cpuSeconds, double seconds) {
        if (cpuSeconds >= 0) {
            line.put("serverCpu", ResultFile.round(cpuSeconds / seconds, 2));
        }
    }

    private static ObjectNode line(LoadShape shape, PostgresLoad source, String configuration) {
        ObjectNode line = ResultFile.newLine("stage1");
        line.put("source", "private PostgreSQL, pgoutput");
        line.put("sourceType", "postgresql"); // report leaves these out of the MySQL tables
        line.put("configuration", configuration);
        line.put("records", shape.records());
        line.put("recordSize", shape.recordSize());
        line.put("tables", shape.tables());
        line.put("mix", shape.mix().toString());
        line.put("transactionSize", shape.transactionSize());
        line.put("seed", shape.seed());
        line.put("walFrom", source.from());
        line.put("walTo", source.to());
        line.put("loadEventsPerSec", Math.round(source.load().eventsPerSecond()));
        return line;
    }

    private static void record(List<ObjectNode> lines, ObjectNode line, Path results)
            throws Exception {
        lines.add(line);
        ResultFile.append(results, line); // which also shows it on stderr
    }

    private static int print(List<ObjectNode> lines) {
        System.out.println("Stage 1 (PostgreSQL pgoutput to relay event buffer)");
        System.out.printf(
                Locale.ROOT,
                "%-34s %12s %10s %8s %10s %8s %8s%n",
                "configuration",
                "events/s",
                "MB/s",
                "cpu",
                "server cpu",
                "ratio",
                "counts");
        int status = 0;
        for (ObjectNode line : lines) {
            boolean counts = line.get("countsMatch").asBoolean();
            status |= counts ? 0 : 1;
            System.out.printf(
                    Locale.ROOT,
                    "%-34s %,12d %10.1f %8.2f %10s %8s %8s%n",
                    line.get("configuration").asText(),
                    line.get("eventsPerSec").asLong(),
                    line.get("mbPerSec").asDouble(),
                    line.get("cpu").asDouble(),
                    line.has("serverCpu") ? line.get("serverCpu").asText() : "-",
                    line.has("ratio") ? line.get("ratio").asText() : "-",
                    counts ? "ok" : "MISMATCH");
        }
        System.out.println(
                "MB/s counts pgoutput message bytes; server cpu is the WAL sender's (decoding)."
                        + " Cores: "
                        + Machine.cores()
                        + ", "
                        + Machine.cpuModel());
        return status;
    }
}
