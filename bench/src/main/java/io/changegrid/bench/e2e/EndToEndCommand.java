package io.changegrid.bench.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.consumer.ConsumerFleet;
import io.changegrid.bench.consumer.ConsumerOptions;
import io.changegrid.bench.consumer.ConsumerSpec;
import io.changegrid.bench.consumer.Delivery;
import io.changegrid.bench.harness.Machine;
import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.Partitioning;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.ResultTable;
import io.changegrid.bench.harness.SourceOptions;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.load.WorkloadOptions;
import io.changegrid.bench.relay.CatchUp;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayOptions;
import io.changegrid.bench.relay.RelayPlan;
import io.changegrid.bench.relay.RelaySource;
import io.changegrid.gridkit.load.LoadShape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The whitepaper's end-to-end run (Table 3): the load is written; the consumer processes start and
 * wait; then the relay processes start over the binlog range. Timed from the first relay's first
 * publish to the last consumer's last event (both {@code System.nanoTime}, CLOCK_MONOTONIC on
 * Linux, so the processes' times compare). Relays split the source (by table); consumer {@code j}
 * reads relay {@code j mod relays}, and the consumers of one relay split its stream.
 *
 * <p>With {@code --source-type postgresql} the load goes into a private PostgreSQL instead ({@link
 * io.changegrid.bench.stage1.PostgresLoad}, as stage 1's) and every relay reads it by logical
 * decoding on its own copy of a slot made before the load; the rest of the run is the same.
 */
@Command(
        name = "e2e",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "End to end: binlog (or PostgreSQL WAL) to relays to consumer callbacks,"
                        + " separate processes (whitepaper Table 3).")
public final class EndToEndCommand implements Callable<Integer> {

    @Mixin WorkloadOptions workload = new WorkloadOptions();

    @Option(
            names = "--source-type",
            description =
                    "mysql: the binlog of a MariaDB/MySQL source; postgresql: a private PostgreSQL"
                            + " read by logical decoding (pgoutput), one slot per relay."
                            + " Default: ${DEFAULT-VALUE}.")
    String sourceType = "mysql";

    @Option(
            names = "--topologies",
            split = ",",
            paramLabel = "RELAYSxCONSUMERS",
            description =
                    "Relays x consumers to run, e.g. 1x1,3x3 (consumers >= relays)."
                            + " Default: 3x3, the whitepaper's.")
    List<String> topologies = List.of("3x3");

    @Mixin ConsumerOptions consumerOptions = new ConsumerOptions();

    @Option(names = "--repeat", description = "Runs of every topology. Default: ${DEFAULT-VALUE}.")
    int repeat = 1;

    @Option(
            names = "--stages",
            description =
                    "Before each end-to-end run, measure stage 1 (the same relays reading the"
                            + " binlog, nobody reading them) and stage 2 (the same consumers"
                            + " reading it all back from those relays) over the same load, and"
                            + " print the per-event CPU of each beside the end-to-end one and"
                            + " their ratio (stagesRatio in the result line).")
    boolean stages;

    @Mixin RelayOptions relayOptions = new RelayOptions();

    @Mixin SourceOptions sourceOptions = new SourceOptions();

    @Option(
            names = "--results",
            description =
                    "File the JSON result lines are appended to. Default:"
                            + " bench/results/e2e.jsonl (read by report for Table 3) for mysql,"
                            + " bench/results/e2e-postgresql.jsonl for postgresql.")
    Path results;

    /** A number of relays and of consumers. */
    record Topology(int relays, int consumers) {
        static Topology parse(String text, OptionProblems problems) {
            String[] parts = text.toLowerCase(java.util.Locale.ROOT).split("x");
            try {
                Topology topology =
                        new Topology(
                                Integer.parseInt(parts[0].trim()),
                                Integer.parseInt(parts[1].trim()));
                problems.check(
                        topology.relays >= 1
                                && topology.relays <= 16
                                && topology.consumers >= topology.relays
                                && topology.consumers <= 64,
                        "--topologies",
                        "relays must be 1..16 and consumers relays..64",
                        text);
                return topology;
            } catch (RuntimeException e) {
                problems.add("--topologies", "expected RELAYSxCONSUMERS, e.g. 3x3", text);
                return new Topology(1, 1);
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        OptionProblems problems = new OptionProblems();
        LoadShape shape = workload.shape(problems);
        relayOptions.check(problems);
        consumerOptions.check(problems);
        List<Topology> parsed = new ArrayList<>();
        for (String text : topologies) {
            parsed.add(Topology.parse(text, problems));
        }
        problems.check(repeat >= 1, "--repeat", "must be at least 1", repeat);
        problems.check(
                List.of("mysql", "postgresql").contains(sourceType),
                "--source-type",
                "must be mysql or postgresql",
                sourceType);
        for (String option : sourceOptions.givenOptions()) {
            problems.check(
                    sourceType.equals("mysql"),
                    option,
                    "only for --source-type mysql (" + sourceType + " runs on a private source)",
                    sourceType);
        }
        problems.throwIfAny();
        Path resultsFile = ResultFile.defaultFor(results, "e2e", sourceType);

        Set<Integer> tableSplits = new HashSet<>();
        for (Topology topology : parsed) {
            if (relayOptions.partitioning() == Partitioning.TABLE) {
                tableSplits.add(topology.relays());
            }
            if (consumerOptions.partitioning() == Partitioning.TABLE) {
                tableSplits.add(topology.consumers());
            }
        }
        List<ObjectNode> lines = new ArrayList<>();
        try (WorkDirectory work =
                        WorkDirectory.create(
                                sourceType.equals("mysql") ? "e2e" : "e2e-" + sourceType);
                EndToEndSource source =
                        EndToEndSource.write(sourceType, sourceOptions, shape, tableSplits)) {
            for (int r = 1; r <= repeat; r++) {
                for (Topology topology : parsed) {
                    for (String format : consumerOptions.formats()) {
                        for (String compression : consumerOptions.compressions()) {
                            ObjectNode line =
                                    run(source, shape, topology, format, compression, work, r);
                            lines.add(line);
                            ResultFile.append(resultsFile, line);
                        }
                    }
                }
            }
            work.succeeded();
        }
        return ResultTable.printCounted(
                System.out,
                sourceType.equals("mysql")
                        ? "End to end (binlog to relays to consumer callbacks)"
                        : "End to end (PostgreSQL pgoutput to relays to consumer callbacks)",
                lines,
                line -> true);
    }

    /** A run's name as a PostgreSQL slot name allows: lower case, digits and underscores. */
    static String slotPrefix(Path part) {
        return "bench_" + part.getFileName().toString().replace('-', '_');
    }

    private ObjectNode run(
            EndToEndSource source,
            LoadShape shape,
            Topology topology,
            String format,
            String compression,
            WorkDirectory work,
            int repetition)
            throws Exception {
        int most =
                java.util.Arrays.stream(source.tables().tablesPerPartition(topology.relays()))
                        .max()
                        .orElse(0);
        RelayPlan plan =
                relayOptions.ingestPlan(
                        topology.relays(), shape, most / (double) shape.tables(), List.of());
        String name =
                topology.relays()
                        + (topology.relays() == 1 ? " relay, " : " relays, ")
                        + topology.consumers()
                        + (topology.consumers() == 1 ? " consumer, " : " consumers, ")
                        + format
                        + (compression.equals("none") ? "" : "+" + compression)
                        + (plan.tls().enabled() ? ", tls" : "");
        System.err.println("end to end: " + name + (repeat > 1 ? ", run " + repetition : ""));
        String warning =
                Machine.oversubscription(
                        System.err,
                        topology.relays()
                                + " relay(s) + "
                                + topology.consumers()
                                + " consumer(s)"
                                + (source.privateServer() != null
                                        ? " + " + source.privateServer()
                                        : ""),
                        topology.relays()
                                + topology.consumers()
                                + (source.privateServer() != null ? 1 : 0));
        Path part =
                work.newPart(
                        "e2e-"
                                + topology.relays()
                                + "x"
                                + topology.consumers()
                                + "-"
                                + format
                                + "-"
                                + compression
                                + "-"
                                + repetition);
        List<Integer> ports = RelayFleet.freePorts(topology.relays());
        java.util.function.Function<List<Integer>, List<ConsumerSpec>> specsFor =
                relayPorts ->
                        ConsumerSpec.assign(
                                        relayPorts.stream().map(plan.tls()::url).toList(),
                                        topology.consumers(),
                                        consumerOptions.partitioning(),
                                        source.database(),
                                        format,
                                        compression,
                                        source.consumerEndScn(),
                                        consumerOptions.bufferBytes())
                                .stream()
                                .map(
                                        spec ->
                                                spec.withRelayCredentials(
                                                        plan.tls().consumerArguments()))
                                .toList();
        SeparateStages.Figures apart = null;
        if (stages) {
            apart =
                    SeparateStages.run(
                            source,
                            relayOptions.plan(
                                    topology.relays(),
                                    shape,
                                    most / (double) shape.tables(),
                                    List.of()),
                            specsFor,
                            consumerOptions,
                            work,
                            part.getFileName() + "-apart");
        }
        List<ConsumerSpec> specs = specsFor.apply(ports);
        OptionalDouble sourceCpuBefore;
        CatchUp catchUp;
        Delivery delivery;
        long[] served;
        try (ConsumerFleet consumers =
                ConsumerFleet.start(
                        specs, consumerOptions.heap(), consumerOptions.javaOptions(), part)) {
            consumers.awaitReady();
            consumers.go(); // they look for the relays every 10-50 ms until these answer
            sourceCpuBefore = source.cpuSeconds();
            // Closed after the relays: a PostgreSQL slot is dropped once its reader let it go.
            try (RelaySource relaySource = source.relays(topology.relays(), slotPrefix(part));
                    RelayFleet relays = RelayFleet.start(relaySource, plan, part, ports)) {
                relays.releaseTogether();
                catchUp = relays.awaitCatchUp(source.relayEndScn(), source.events());
                delivery = consumers.await(source.events());
                served = relays.servedResponsesAndEvents();
            }
        }
        OptionalDouble sourceCpuAfter = source.cpuSeconds();
        double seconds = (delivery.lastNanos() - catchUp.firstNanos()) / 1e9;
        ObjectNode line = ResultFile.newLine("e2e");
        line.put("configuration", name);
        line.put("relays", topology.relays());
        line.put("tls", plan.tls().enabled());
        line.put("consumers", topology.consumers());
        line.put("partitioning", topology.relays() == 1 ? "none" : plan.partitioning().label());
        line.put("consumerPartitioning", consumerOptions.partitioning().label());
        line.put("format", format);
        line.put("compression", compression);
        source.describe(line, shape);
        ResultFile.putThroughput(
                line,
                delivery.events(),
                source.events(),
                seconds,
                catchUp.bytes(),
                catchUp.cpuSeconds() + delivery.cpuSeconds());
        line.put("processes", topology.relays() + topology.consumers());
        line.put("bufferBytes", plan.bufferBytes());
        line.put("machineCpuRelayWindow", ResultFile.round(catchUp.machineCores(), 2));
        line.put("harnessCpu", ResultFile.round(catchUp.harnessCores(), 2));
        line.put("relayStartSkewSeconds", ResultFile.round(catchUp.startSkewNanos() / 1e9, 3));
        line.put("heapMax", Math.max(catchUp.heapMax(), delivery.heapMax()));
        line.put("relaySeconds", ResultFile.round(catchUp.seconds(), 3));
        line.put("relayCpu", ResultFile.round(catchUp.cores(), 2));
        line.put("consumerCpu", ResultFile.round(delivery.cpuSeconds() / seconds, 2));
        if (sourceCpuBefore.isPresent() && sourceCpuAfter.isPresent()) {
            line.put(
                    "sourceCpu",
                    ResultFile.round(
                            (sourceCpuAfter.getAsDouble() - sourceCpuBefore.getAsDouble())
                                    / seconds,
                            2));
        }
        double cpuSeconds = catchUp.cpuSeconds() + delivery.cpuSeconds();
        double micros = cpuSeconds * 1e6 / Math.max(1, delivery.events());
        line.put("cpuMicrosPerEvent", ResultFile.round(micros, 3));
        line.put("responses", served[0]);
        double eventsPerResponse = served[1] / (double) Math.max(1, served[0]);
        line.put("eventsPerResponse", ResultFile.round(eventsPerResponse, 1));
        if (apart != null) {
            apart.put(line, micros);
            apart.print(System.out, micros, eventsPerResponse);
        }
        if (warning != null) {
            line.put("warning", warning);
        }
        line.put("repetition", repetition);
        return line;
    }
}
