package io.changegrid.bench.stage1;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.DiskReads;
import io.changegrid.bench.harness.Machine;
import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.ResultTable;
import io.changegrid.bench.harness.SourceOptions;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.load.LoadedRange;
import io.changegrid.bench.load.WorkloadOptions;
import io.changegrid.bench.relay.CatchUp;
import io.changegrid.bench.relay.PolicyFile;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayOptions;
import io.changegrid.bench.relay.RelayPlan;
import io.changegrid.gridkit.load.LoadShape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The whitepaper's stage 1 (Table 1): the load is written with nothing replicating; then, over the
 * same binlog range, a bare {@code BinaryLogClient}, the server's own raw copy ({@link
 * ServerRawCopy}, the server's send limit, beside every reader as binlog MB/s) and, for each relay
 * count, that many relay processes splitting the source, timed from the first publish to the last
 * relay reaching the end. With {@code --policies}, every relay count runs pass-through and with the
 * policies, and the ratio is reported.
 */
@Command(
        name = "stage1",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Stage 1: MySQL/MariaDB binlog to relay event buffer (whitepaper Table 1).")
public final class Stage1Command implements Callable<Integer> {

    @Mixin WorkloadOptions workload = new WorkloadOptions();

    @Option(
            names = "--source-type",
            description =
                    "mysql: the binlog of a MariaDB/MySQL source; goldengate: the load as GoldenGate"
                            + " for Big Data JSON trail files (the whitepaper's GoldenGate run: use"
                            + " --tables 2); logminer: the load as Oracle LogMiner rows on the"
                            + " PostgreSQL stand-in (not Oracle); postgresql: a private PostgreSQL"
                            + " read by logical decoding (pgoutput), against a bare pgjdbc reader."
                            + " Default: ${DEFAULT-VALUE}.")
    String sourceType = "mysql";

    @Option(
            names = "--relays",
            split = ",",
            description = "Relay counts to run, each over the same binlog, e.g. 1,2,3. Default: 1.")
    List<Integer> relays = List.of(1);

    @Option(
            names = "--policies",
            description =
                    "A YAML file with a policies: list for the relays (e.g."
                            + " bench/policies/chain.yaml); each relay count then runs"
                            + " pass-through and with them.")
    Path policies;

    @Option(
            names = "--repeat",
            description =
                    "Runs of every configuration (and of the bare reader) over the same binlog."
                            + " Default: ${DEFAULT-VALUE}.")
    int repeat = 1;

    @Mixin RelayOptions relayOptions = new RelayOptions();

    @Mixin SourceOptions sourceOptions = new SourceOptions();

    @Option(
            names = "--results",
            description =
                    "File the JSON result lines are appended to. Default:"
                            + " bench/results/stage1.jsonl (read by report for Table 1) for mysql,"
                            + " bench/results/stage1-<source-type>.jsonl for the others.")
    Path results;

    @Override
    public Integer call() throws Exception {
        OptionProblems problems = new OptionProblems();
        LoadShape shape = workload.shape(problems);
        relayOptions.check(problems);
        for (int count : relays) {
            problems.check(count >= 1 && count <= 16, "--relays", "each must be 1..16", relays);
        }
        problems.check(repeat >= 1, "--repeat", "must be at least 1", repeat);
        problems.check(
                List.of("mysql", "goldengate", "logminer", "postgresql").contains(sourceType),
                "--source-type",
                "must be mysql, goldengate, logminer or postgresql",
                sourceType);
        problems.check(
                sourceType.equals("mysql") || (relays.equals(List.of(1)) && policies == null),
                "--source-type",
                sourceType + " runs one relay without policies",
                sourceType);
        for (String option : sourceOptions.givenOptions()) {
            problems.check(
                    sourceType.equals("mysql"),
                    option,
                    "only for --source-type mysql (" + sourceType + " runs on a private source)",
                    sourceType);
        }
        List<?> policyList =
                policies == null ? List.of() : PolicyFile.read(policies, "--policies", problems);
        problems.throwIfAny();
        Path results = ResultFile.defaultFor(this.results, "stage1", sourceType);
        if (sourceType.equals("goldengate")) {
            return GoldenGateStage1.run(shape, relayOptions, repeat, results);
        }
        if (sourceType.equals("logminer")) {
            return LogMinerStage1.run(shape, relayOptions, repeat, results);
        }
        if (sourceType.equals("postgresql")) {
            return PostgresStage1.run(shape, relayOptions, repeat, results);
        }

        List<ObjectNode> lines = new ArrayList<>();
        try (WorkDirectory work = WorkDirectory.create("stage1");
                BenchSource source =
                        BenchSource.open(sourceOptions, shape.dataBytes(), shape.frameBytes())) {
            LoadedRange range = LoadedRange.write(source, shape, new HashSet<>(relays));
            for (int r = 1; r <= repeat; r++) {
                OptionalLong bareDiskBefore = DiskReads.bytes();
                BareBinlogReader.Result bare =
                        BareBinlogReader.run(
                                source,
                                range.from(),
                                range.to(),
                                relayOptions.heap(),
                                work.newPart("bare-" + r).resolve("bare.log"));
                System.err.printf(
                        Locale.ROOT,
                        "bare BinaryLogClient: %,d rows in %.2f s = %,.0f rows/s%n",
                        bare.rows(),
                        bare.seconds(),
                        bare.rows() / bare.seconds());
                OptionalLong bareDiskAfter = DiskReads.bytes();
                ServerRawCopy.Result server =
                        ServerRawCopy.run(
                                source,
                                range.from(),
                                work.newPart("server-" + r).resolve("mariadb-binlog.log"));
                System.err.printf(
                        Locale.ROOT,
                        "server limit, mariadb-binlog --raw: %,d binlog bytes in %.2f s"
                                + " = %,.0f MB/s (the range: %s to %s), %,.0f MB read from disk%n",
                        server.bytes(),
                        server.seconds(),
                        server.bytesPerSec() / 1e6,
                        range.from(),
                        range.to(),
                        Math.max(0, DiskReads.megabytesBetween(bareDiskAfter, DiskReads.bytes())));
                ObjectNode bareLine = bareLine(bare, range, shape, source);
                putDiskReads(bareLine, bareDiskBefore, bareDiskAfter);
                putServerLimit(bareLine, server, bare.seconds());
                record(lines, bareLine, results);
                for (int count : relays) {
                    ObjectNode pass = run(source, range, shape, count, List.of(), bare, work, r);
                    putServerLimit(pass, server, pass.get("seconds").asDouble());
                    record(lines, pass, results);
                    if (!policyList.isEmpty()) {
                        ObjectNode chain =
                                run(source, range, shape, count, policyList, bare, work, r);
                        putServerLimit(chain, server, chain.get("seconds").asDouble());
                        record(lines, chain, results);
                    }
                }
            }
            work.succeeded();
        }
        // A policy may filter rows out: only pass-through runs must count every generated event.
        int status =
                ResultTable.printCounted(
                        System.out,
                        "Stage 1 (binlog to relay event buffer)",
                        lines,
                        line -> line.get("policies").asText().equals("none"));
        printRatios(lines);
        printServerLimit(lines);
        return status;
    }

    /**
     * The server's limit beside a reader's line: the raw copy's binlog bytes per second, this
     * reader's over the same range, and their ratio.
     */
    private static void putServerLimit(
            ObjectNode line, ServerRawCopy.Result server, double readerSeconds) {
        line.put("serverBinlogMbPerSec", ResultFile.round(server.bytesPerSec() / 1e6, 1));
        line.put("binlogMbPerSec", ResultFile.round(server.bytes() / 1e6 / readerSeconds, 1));
        line.put("ratioToServer", ResultFile.round(server.seconds() / readerSeconds, 3));
    }

    /**
     * The megabytes the machine read from disk during a reader's run: near zero when the source
     * served the binlog from the page cache, as the runs are meant to; the binlog's size when the
     * reader's rate was the disk's.
     */
    private static void putDiskReads(ObjectNode line, OptionalLong before, OptionalLong after) {
        double megabytes = DiskReads.megabytesBetween(before, after);
        if (megabytes >= 0) {
            line.put("diskReadMb", ResultFile.round(megabytes, 1));
        }
    }

    /** Relay / bare reader / server limit, per line, in binlog bytes of the same range. */
    private static void printServerLimit(List<ObjectNode> lines) {
        System.out.println();
        System.out.println(
                "Binlog MB/s of the same range: each reader, the server's raw copy, their ratio");
        for (ObjectNode line : lines) {
            System.out.printf(
                    Locale.ROOT,
                    "%-34s %9.1f MB/s   server %9.1f MB/s   ratio to server %.3f%s%s%s%n",
                    line.get("configuration").asText(),
                    line.path("binlogMbPerSec").asDouble(),
                    line.path("serverBinlogMbPerSec").asDouble(),
                    line.path("ratioToServer").asDouble(),
                    line.has("ratio")
                            ? String.format(
                                    Locale.ROOT,
                                    "   to bare reader %.3f",
                                    line.get("ratio").asDouble())
                            : "",
                    line.has("diskReadMb")
                            ? String.format(
                                    Locale.ROOT,
                                    "   read from disk %,.0f MB",
                                    line.get("diskReadMb").asDouble())
                            : "",
                    line.has("jitCpuSeconds")
                            ? String.format(
                                    Locale.ROOT,
                                    "   JIT %.2f of %.2f CPU s",
                                    line.get("jitCpuSeconds").asDouble(),
                                    line.path("cpu").asDouble() * line.path("seconds").asDouble())
                            : "");
        }
    }

    private ObjectNode run(
            BenchSource source,
            LoadedRange range,
            LoadShape shape,
            int count,
            List<?> policyList,
            BareBinlogReader.Result bare,
            WorkDirectory work,
            int repetition)
            throws Exception {
        int[] perPartition = range.tables().tablesPerPartition(count);
        int most = java.util.Arrays.stream(perPartition).max().orElse(0);
        RelayPlan plan =
                relayOptions.ingestPlan(count, shape, most / (double) shape.tables(), policyList);
        String name =
                count
                        + (count == 1 ? " relay" : " relays by " + plan.partitioning().label())
                        + (policyList.isEmpty() ? "" : " + policies");
        System.err.println("stage 1: " + name + (repeat > 1 ? ", run " + repetition : ""));
        String warning =
                Machine.oversubscription(
                        System.err,
                        count
                                + (count == 1 ? " relay" : " relays")
                                + (source.isPrivate() ? " + MariaDB" : ""),
                        count + (source.isPrivate() ? 1 : 0));
        OptionalDouble sourceCpuBefore = source.cpuSeconds();
        OptionalLong diskBefore = DiskReads.bytes();
        CatchUp catchUp;
        try (RelayFleet fleet =
                RelayFleet.start(
                        source,
                        range.from(),
                        plan,
                        work.newPart(
                                "relays-"
                                        + count
                                        + "-"
                                        + chainName(policyList)
                                        + "-"
                                        + repetition))) {
            fleet.releaseTogether();
            catchUp = fleet.awaitCatchUp(range.to(), range.load().events());
        }
        OptionalDouble sourceCpuAfter = source.cpuSeconds();
        OptionalLong diskAfter = DiskReads.bytes();
        ObjectNode line = ResultFile.newLine("stage1");
        line.put("configuration", name);
        line.put("relays", count);
        line.put("partitioning", count == 1 ? "none" : plan.partitioning().label());
        line.put("tablesPerRelay", java.util.Arrays.toString(perPartition));
        line.put("policies", policyList.isEmpty() ? "none" : policies.getFileName().toString());
        range.describe(line, shape, source.describe());
        ResultFile.putThroughput(
                line,
                catchUp.events(),
                range.load().events(),
                catchUp.seconds(),
                catchUp.bytes(),
                catchUp.cpuSeconds());
        line.put(
                "cpuMicrosPerEvent",
                ResultFile.round(catchUp.cpuSeconds() * 1e6 / Math.max(1, catchUp.events()), 3));
        line.put("processes", count);
        line.put("machineCpu", ResultFile.round(catchUp.machineCores(), 2));
        line.put("harnessCpu", ResultFile.round(catchUp.harnessCores(), 2));
        line.put("relayStartSkewSeconds", ResultFile.round(catchUp.startSkewNanos() / 1e9, 3));
        line.put("heapMax", catchUp.heapMax());
        line.put("heapLimit", plan.heap());
        line.put("bufferBytes", plan.bufferBytes());
        CatchUp.SecondHalf secondHalf = catchUp.secondHalf();
        if (secondHalf.nanos() > 0) {
            line.put("secondHalfEventsPerSec", Math.round(secondHalf.eventsPerSec()));
            line.put("secondHalfCpu", ResultFile.round(secondHalf.cores(), 2));
        }
        line.put("bareEventsPerSec", Math.round(bare.rows() / bare.seconds()));
        line.put(
                "ratio",
                ResultFile.round(
                        catchUp.events() / catchUp.seconds() / (bare.rows() / bare.seconds()), 3));
        if (sourceCpuBefore.isPresent() && sourceCpuAfter.isPresent()) {
            line.put(
                    "sourceCpu",
                    ResultFile.round(
                            (sourceCpuAfter.getAsDouble() - sourceCpuBefore.getAsDouble())
                                    / catchUp.seconds(),
                            2));
        }
        putDiskReads(line, diskBefore, diskAfter);
        if (catchUp.jitCpuSeconds() >= 0) {
            // Compiling is part of a cold relay's window; without it, what the work cost.
            line.put("jitCpuSeconds", ResultFile.round(catchUp.jitCpuSeconds(), 2));
            line.put(
                    "cpuMicrosPerEventWithoutJit",
                    ResultFile.round(
                            (catchUp.cpuSeconds() - catchUp.jitCpuSeconds())
                                    * 1e6
                                    / Math.max(1, catchUp.events()),
                            3));
        }
        if (warning != null) {
            line.put("warning", warning);
        }
        line.put("repetition", repetition);
        return line;
    }

    private static void record(List<ObjectNode> lines, ObjectNode line, Path results)
            throws java.io.IOException {
        lines.add(line);
        ResultFile.append(results, line);
    }

    /** "pass" or "policies", for the run's directory name. */
    private static String chainName(List<?> policyList) {
        return policyList.isEmpty() ? "pass" : "policies";
    }

    private static ObjectNode bareLine(
            BareBinlogReader.Result bare, LoadedRange range, LoadShape shape, BenchSource source) {
        ObjectNode line = ResultFile.newLine("stage1");
        line.put("configuration", "bare BinaryLogClient");
        line.put("relays", 0);
        line.put("partitioning", "none");
        line.put("policies", "none");
        range.describe(line, shape, source.describe());
        ResultFile.putThroughput(
                line, bare.rows(), range.load().events(), bare.seconds(), 0, bare.cpuSeconds());
        line.put("processes", 0);
        return line;
    }

    /** Medians of policies vs pass-through per relay count, when both ran. */
    private static void printRatios(List<ObjectNode> lines) {
        lines.stream()
                .filter(line -> !line.get("policies").asText().equals("none"))
                .map(line -> line.get("relays").asInt())
                .distinct()
                .forEach(
                        count -> {
                            for (String rate : List.of("eventsPerSec", "secondHalfEventsPerSec")) {
                                double pass = median(lines, count, true, rate);
                                double chain = median(lines, count, false, rate);
                                System.out.printf(
                                        Locale.ROOT,
                                        "%d relay(s), %s: pass-through %,.0f ev/s, with policies"
                                                + " %,.0f ev/s: ratio %.3f (medians)%n",
                                        count,
                                        rate.equals("eventsPerSec")
                                                ? "whole window"
                                                : "second half",
                                        pass,
                                        chain,
                                        chain / pass);
                            }
                        });
    }

    private static double median(
            List<ObjectNode> lines, int relays, boolean passThrough, String rate) {
        double[] rates =
                lines.stream()
                        .filter(line -> line.get("relays").asInt() == relays)
                        .filter(line -> line.get("policies").asText().equals("none") == passThrough)
                        .mapToDouble(line -> line.path(rate).asDouble())
                        .sorted()
                        .toArray();
        int middle = rates.length / 2;
        return rates.length % 2 == 1 ? rates[middle] : (rates[middle - 1] + rates[middle]) / 2;
    }
}
