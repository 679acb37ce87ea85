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
import io.changegrid.gridkit.server.PostgresServer;
import io.changegrid.protocol.RelayApi;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Stage 1 with {@code --source-type logminer}: the whole LogMiner fetcher (JDBC reading, CSF
 * joining, transaction assembly, SQL_REDO parsing and typing, frame encoding) in one relay process
 * on grid-kit's PostgreSQL stand-in, never on Oracle. The load is rendered into a backlog of
 * LogMiner rows first ({@link LogMinerBacklog}, not timed); then the bare query of the stand-in's
 * {@code v$logmnr_contents} ({@link BareContentsReader}, the ceiling the stand-in allows) and one
 * relay with {@code source.type: logminer} started at the backlog's first SCN, timed from the
 * moment the stand-in's current SCN is moved to the backlog's end to the moment the relay has
 * published its last commit.
 */
final class LogMinerStage1 {

    private static final long POLL_MILLIS = 20;
    private static final long WINDOW_SCNS = 20_000;
    private static final int FETCH_SIZE = 2_000;

    private LogMinerStage1() {}

    static int run(LoadShape shape, RelayOptions relayOptions, int repeat, Path results)
            throws Exception {
        List<ObjectNode> lines = new ArrayList<>();
        try (WorkDirectory work = WorkDirectory.create("stage1-logminer");
                PostgresServer server = PostgresServer.start()) {
            System.err.printf(
                    Locale.ROOT,
                    "logminer: rendering %,d row changes as LogMiner rows on the stand-in ...%n",
                    shape.records());
            LogMinerBacklog backlog = LogMinerBacklog.write(server, shape);
            System.err.printf(
                    Locale.ROOT,
                    "logminer: %,d events in %,d transactions, %,d LogMiner rows, %,.1f MB of SQL_REDO,"
                            + " SCN %d..%d%n",
                    backlog.events(),
                    backlog.transactions(),
                    backlog.rows(),
                    backlog.redoBytes() / 1e6,
                    backlog.firstScn(),
                    backlog.lastScn());
            backlog.release(); // the bare reader needs no held SCN; the relay runs set it again
            for (int r = 1; r <= repeat; r++) {
                BareContentsReader.Result bare =
                        BareContentsReader.run(backlog, WINDOW_SCNS, FETCH_SIZE);
                ObjectNode bareLine = line(shape, backlog, "bare v$logmnr_contents read (ceiling)");
                ResultFile.putThroughput(
                        bareLine,
                        backlog.events(),
                        backlog.events(),
                        bare.seconds(),
                        bare.bytes(),
                        bare.cpuSeconds());
                bareLine.put("logminerRows", bare.rows());
                record(lines, bareLine, results);
                RelayPlan plan = relayOptions.ingestPlan(1, shape, 1.0, List.of());
                record(lines, relay(shape, backlog, plan, work.newPart("relay-" + r)), results);
            }
            work.succeeded();
        }
        System.out.println(
                "Stage 1 (Oracle LogMiner rows on the PostgreSQL stand-in to relay event buffer)");
        System.out.printf(
                Locale.ROOT,
                "%-40s %12s %10s %8s %8s%n",
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
                    "%-40s %,12d %10.1f %8.2f %8s%n",
                    line.get("configuration").asText(),
                    line.get("eventsPerSec").asLong(),
                    line.get("mbPerSec").asDouble(),
                    line.get("cpu").asDouble(),
                    counts ? "ok" : "MISMATCH");
        }
        System.out.println(
                "Measured on the stand-in (PostgreSQL serving v$logmnr_contents), not on Oracle. MB/s"
                        + " counts SQL_REDO text. Cores: "
                        + Machine.cores()
                        + ", "
                        + Machine.cpuModel());
        return status;
    }

    private static ObjectNode relay(
            LoadShape shape, LogMinerBacklog backlog, RelayPlan plan, Path work) throws Exception {
        // Hold the backlog back again: the relay starts, connects and checks the source first.
        backlog.standIn()
                .execute("UPDATE v$database SET current_scn = " + (backlog.firstScn() - 1));
        int port = RelayFleet.freePorts(1).get(0);
        Path config = work.resolve("relay.yaml");
        java.nio.file.Files.writeString(
                config, ResultFile.toText(config(backlog, plan, port, work)));
        List<String> jvm = new ArrayList<>();
        jvm.add("-XX:MaxDirectMemorySize=" + (plan.bufferBytes() + (256L << 20)));
        for (String option : plan.javaOptions()) {
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
            while (GoldenGateStage1.fetch(http, status) == null) {
                GoldenGateStage1.check(process, log);
                Thread.sleep(POLL_MILLIS);
            }
            double cpuBefore = JavaProcess.cpuSeconds(process.toHandle());
            long start = System.nanoTime();
            backlog.release();
            long published;
            while (true) {
                GoldenGateStage1.check(process, log);
                JsonNode fetch = GoldenGateStage1.fetch(http, status);
                if (fetch != null) {
                    if ("FAILED".equals(fetch.path("state").asText())) {
                        throw new IllegalStateException(
                                "relay fetcher failed: "
                                        + fetch.path("error").asText()
                                        + ", log="
                                        + log);
                    }
                    published = fetch.path("lastPublishedScn").asLong();
                    if (published >= backlog.lastCommitTimelineScn()) {
                        break;
                    }
                }
                Thread.sleep(POLL_MILLIS);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = JavaProcess.cpuSeconds(process.toHandle()) - cpuBefore;
            ObjectNode line = line(shape, backlog, "1 relay, source.type logminer (stand-in)");
            // The last commit is the backlog's last row: published exactly there, nothing past it.
            long events = published == backlog.lastCommitTimelineScn() ? backlog.events() : -1;
            ResultFile.putThroughput(
                    line, events, backlog.events(), seconds, backlog.redoBytes(), cpu);
            line.put("heapLimit", plan.heap());
            line.put("bufferBytes", plan.bufferBytes());
            line.put("windowMaxScns", WINDOW_SCNS);
            return line;
        } finally {
            JavaProcess.stop(process);
        }
    }

    private static ObjectNode config(LogMinerBacklog backlog, RelayPlan plan, int port, Path work) {
        ObjectNode root = ResultFile.JSON.createObjectNode();
        ObjectNode source = root.putObject("source");
        source.put("type", "logminer");
        source.put("url", backlog.standIn().jdbcUrl());
        source.put("user", backlog.standIn().user());
        source.put("dialect", "postgresql-stand-in");
        source.put("start", Long.toString(backlog.firstScn()));
        source.put("windowMaxScns", WINDOW_SCNS);
        source.put("fetchSize", FETCH_SIZE);
        source.put("pollInterval", "2ms");
        source.put("heartbeatInterval", "100ms");
        root.putObject("capture").putArray("include").add(LogMinerBacklog.OWNER + ".*");
        ObjectNode buffer = root.putObject("buffer");
        buffer.put("capacity", plan.bufferBytes() + "B");
        buffer.put("segmentSize", "64MiB");
        buffer.put("storage", plan.storage());
        Path shm = Path.of("/dev/shm");
        buffer.put("directory", (java.nio.file.Files.isDirectory(shm) ? shm : work).toString());
        root.putObject("state").put("directory", work.resolve("state").toString());
        root.putObject("http").put("port", port);
        return root;
    }

    private static ObjectNode line(LoadShape shape, LogMinerBacklog backlog, String configuration) {
        ObjectNode line = ResultFile.newLine("stage1");
        line.put("source", "logminer-stand-in");
        line.put("configuration", configuration);
        line.put("records", shape.records());
        line.put("recordSize", shape.recordSize());
        line.put("tables", shape.tables());
        line.put("transactionSize", shape.transactionSize());
        line.put("logminerRows", backlog.rows());
        line.put("redoBytes", backlog.redoBytes());
        return line;
    }

    private static void record(List<ObjectNode> lines, ObjectNode line, Path results)
            throws Exception {
        lines.add(line);
        ResultFile.append(results, line);
        System.err.println(ResultFile.toText(line));
    }
}
