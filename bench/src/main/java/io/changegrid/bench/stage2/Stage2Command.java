package io.changegrid.bench.stage2;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.consumer.ConsumerFleet;
import io.changegrid.bench.consumer.ConsumerOptions;
import io.changegrid.bench.consumer.ConsumerSpec;
import io.changegrid.bench.consumer.Delivery;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.CpuMeter;
import io.changegrid.bench.harness.Machine;
import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.Partitioning;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.ResultTable;
import io.changegrid.bench.harness.SourceOptions;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.load.LoadedRange;
import io.changegrid.bench.load.WorkloadOptions;
import io.changegrid.bench.relay.CatchUp;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayOptions;
import io.changegrid.bench.relay.RelayPlan;
import io.changegrid.gridkit.load.LoadShape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The whitepaper's stage 2 (Table 2): the load is written, one relay process reads it all into its
 * buffer; then, for each consumer count, format and compression, that many consumer processes split
 * the relay's stream and read it from the oldest event, timed from the first consumer's first event
 * to the last consumer's last.
 */
@Command(
        name = "stage2",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Stage 2: relay event buffer to consumer callbacks (whitepaper Table 2).")
public final class Stage2Command implements Callable<Integer> {

    @Mixin WorkloadOptions workload = new WorkloadOptions();

    @Option(
            names = "--consumers",
            split = ",",
            description = "Consumer counts to run, e.g. 1,2,3. Default: 1.")
    List<Integer> consumers = List.of(1);

    @Mixin ConsumerOptions consumerOptions = new ConsumerOptions();

    @Option(
            names = "--repeat",
            description = "Runs of every configuration. Default: ${DEFAULT-VALUE}.")
    int repeat = 1;

    @Mixin RelayOptions relayOptions = new RelayOptions();

    @Mixin SourceOptions sourceOptions = new SourceOptions();

    @Option(
            names = "--results",
            description = "File the JSON result lines are appended to. Default: ${DEFAULT-VALUE}.")
    Path results = Path.of("bench/results/stage2.jsonl");

    @Override
    public Integer call() throws Exception {
        OptionProblems problems = new OptionProblems();
        LoadShape shape = workload.shape(problems);
        relayOptions.check(problems);
        consumerOptions.check(problems);
        for (int count : consumers) {
            problems.check(
                    count >= 1 && count <= 64, "--consumers", "each must be 1..64", consumers);
        }
        problems.check(repeat >= 1, "--repeat", "must be at least 1", repeat);
        problems.throwIfAny();

        Set<Integer> tableSplits =
                consumerOptions.partitioning() == Partitioning.TABLE
                        ? new HashSet<>(consumers)
                        : Set.of();
        List<ObjectNode> lines = new ArrayList<>();
        try (WorkDirectory work = WorkDirectory.create("stage2");
                BenchSource source =
                        BenchSource.open(sourceOptions, shape.dataBytes(), shape.frameBytes())) {
            LoadedRange range = LoadedRange.write(source, shape, tableSplits);
            RelayPlan plan = relayOptions.plan(1, shape, 1, List.of());
            try (RelayFleet relay =
                    RelayFleet.start(source, range.from(), plan, work.newPart("relay"))) {
                System.err.println("stage 2: preloading the relay's buffer");
                CatchUp preload = relay.awaitCatchUp(range.to(), range.load().events());
                System.err.printf(
                        Locale.ROOT,
                        "relay holds %,d events (%,d bytes) after %.2f s%n",
                        preload.events(),
                        preload.bytes(),
                        preload.seconds());
                for (int r = 1; r <= repeat; r++) {
                    for (int count : consumers) {
                        for (String format : consumerOptions.formats()) {
                            for (String compression : consumerOptions.compressions()) {
                                ObjectNode line =
                                        run(
                                                source,
                                                range,
                                                shape,
                                                relay,
                                                preload,
                                                count,
                                                format,
                                                compression,
                                                work,
                                                r);
                                lines.add(line);
                                ResultFile.append(results, line);
                            }
                        }
                    }
                }
            }
            work.succeeded();
        }
        return ResultTable.printCounted(
                System.out,
                "Stage 2 (relay event buffer to consumer callbacks)",
                lines,
                line -> true);
    }

    private ObjectNode run(
            BenchSource source,
            LoadedRange range,
            LoadShape shape,
            RelayFleet relay,
            CatchUp preload,
            int count,
            String format,
            String compression,
            WorkDirectory work,
            int repetition)
            throws Exception {
        Partitioning split = consumerOptions.partitioning();
        String name =
                count
                        + (count == 1 ? " consumer" : " consumers by " + split.label())
                        + ", "
                        + format
                        + (compression.equals("none") ? "" : "+" + compression)
                        + (relayOptions.tls().enabled() ? ", tls" : "");
        System.err.println("stage 2: " + name + (repeat > 1 ? ", run " + repetition : ""));
        String warning =
                Machine.oversubscription(
                        System.err,
                        "1 relay + " + count + (count == 1 ? " consumer" : " consumers"),
                        count + 1);
        List<ConsumerSpec> specs =
                ConsumerSpec.assign(
                        relay.urls(),
                        count,
                        split,
                        source.database(),
                        format,
                        compression,
                        range.to().scn() - 1,
                        consumerOptions.bufferBytes());
        specs =
                specs.stream()
                        .map(
                                spec ->
                                        spec.withRelayCredentials(
                                                relayOptions.tls().consumerArguments()))
                        .toList();
        double relayCpuBefore = relay.cpuSeconds();
        Delivery delivery;
        CpuMeter machine = new CpuMeter();
        try (ConsumerFleet fleet =
                ConsumerFleet.start(
                        specs,
                        consumerOptions.heap(),
                        consumerOptions.javaOptions(),
                        work.newPart(
                                "consumers-"
                                        + name.replaceAll("[^a-z0-9]+", "-")
                                        + "-"
                                        + repetition))) {
            fleet.awaitReady();
            machine.start();
            fleet.go();
            delivery = fleet.await(range.load().events());
        }
        double relayCpu = relay.cpuSeconds() - relayCpuBefore;
        double bytesPerEvent = preload.bytes() / (double) Math.max(1, preload.events());
        ObjectNode line = ResultFile.newLine("stage2");
        line.put("configuration", name);
        line.put("relays", 1);
        line.put("tls", relayOptions.tls().enabled());
        line.put("consumers", count);
        line.put("partitioning", count == 1 ? "none" : split.label());
        line.put("format", format);
        line.put("compression", compression);
        range.describe(line, shape, source.describe());
        ResultFile.putThroughput(
                line,
                delivery.events(),
                range.load().events(),
                delivery.seconds(),
                delivery.events() * bytesPerEvent,
                delivery.cpuSeconds());
        line.put("processes", count);
        line.put("consumerBufferBytes", consumerOptions.bufferBytes());
        line.put("heapMax", delivery.heapMax());
        line.put("heapLimit", consumerOptions.heap());
        line.put("slowestConsumerSeconds", ResultFile.round(delivery.slowest(), 3));
        line.put("machineCpu", ResultFile.round(machine.machineCores(), 2));
        line.put("harnessCpu", ResultFile.round(machine.harnessCores(), 2));
        line.put("relayCpu", ResultFile.round(relayCpu / delivery.seconds(), 2));
        line.put("relayCpuSeconds", ResultFile.round(relayCpu, 2));
        // Relay and consumers: what end to end's per-event CPU compares with (e2e --stages).
        line.put(
                "cpuMicrosPerEvent",
                ResultFile.round(
                        (relayCpu + delivery.cpuSeconds()) * 1e6 / Math.max(1, delivery.events()),
                        3));
        if (warning != null) {
            line.put("warning", warning);
        }
        line.put("repetition", repetition);
        return line;
    }
}
