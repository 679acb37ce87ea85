package io.changegrid.bench.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.consumer.ConsumerFleet;
import io.changegrid.bench.consumer.ConsumerOptions;
import io.changegrid.bench.consumer.ConsumerSpec;
import io.changegrid.bench.consumer.Delivery;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.relay.CatchUp;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayPlan;
import io.changegrid.bench.relay.RelaySource;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Stage 1 and stage 2 measured apart over the load an end-to-end run reads, in the same sitting, so
 * that {@code e2e --stages} prints the per-event CPU of each stage beside the end-to-end one and
 * their ratio (issue 21: end to end should cost at most 1.15 × stage 1 + stage 2).
 *
 * <p>One set of relays, as many as the topology's, with buffers that hold the whole load: stage 1
 * is their catch-up over the binlog with nobody reading (their CPU in their window, as {@code
 * stage1} measures it); stage 2 is then the topology's consumers reading everything back from those
 * buffers (relay and consumer CPU from the consumers' release to the last event, as {@code stage2}
 * measures it). MariaDB's CPU is in neither, nor in the end-to-end figure.
 */
final class SeparateStages {

    /**
     * Per-event CPU of the two stages, in microseconds.
     *
     * @param stage1Micros the relays' CPU per event while reading the binlog into their buffers
     * @param stage2Micros the relays' and consumers' CPU per event while the consumers read it all
     * @param stage1EventsPerSec stage 1's rate, for the reader's sanity
     * @param stage2EventsPerSec stage 2's rate
     * @param stage2EventsPerResponse events one stream response carried in stage 2, on average
     */
    record Figures(
            double stage1Micros,
            double stage2Micros,
            double stage1EventsPerSec,
            double stage2EventsPerSec,
            double stage2EventsPerResponse) {

        double sumMicros() {
            return stage1Micros + stage2Micros;
        }

        /** Puts the stage figures and the end-to-end ratio to them into an e2e result line. */
        void put(ObjectNode line, double e2eMicros) {
            line.put("stage1CpuMicrosPerEvent", ResultFile.round(stage1Micros, 3));
            line.put("stage2CpuMicrosPerEvent", ResultFile.round(stage2Micros, 3));
            line.put("stage1EventsPerSec", Math.round(stage1EventsPerSec));
            line.put("stage2EventsPerSec", Math.round(stage2EventsPerSec));
            line.put("stage2EventsPerResponse", ResultFile.round(stage2EventsPerResponse, 1));
            line.put("stagesRatio", ResultFile.round(e2eMicros / sumMicros(), 3));
        }

        void print(PrintStream out, double e2eMicros, double e2eEventsPerResponse) {
            out.printf(
                    Locale.ROOT,
                    "per-event CPU: stage 1 %.2f µs (%,.0f events/s) + stage 2 %.2f µs (%,.0f"
                            + " events/s, %,.0f events/response) = %.2f µs; end to end %.2f µs"
                            + " (%,.0f events/response): ratio %.2f%n",
                    stage1Micros,
                    stage1EventsPerSec,
                    stage2Micros,
                    stage2EventsPerSec,
                    stage2EventsPerResponse,
                    sumMicros(),
                    e2eMicros,
                    e2eEventsPerResponse,
                    e2eMicros / sumMicros());
        }
    }

    private SeparateStages() {}

    /**
     * Runs stage 1 then stage 2 with {@code plan}'s relays and the consumers {@code specs} gives
     * for the relays' URLs.
     */
    static Figures run(
            EndToEndSource source,
            RelayPlan plan,
            Function<List<Integer>, List<ConsumerSpec>> specs,
            ConsumerOptions consumerOptions,
            WorkDirectory work,
            String name)
            throws Exception {
        List<Integer> ports = RelayFleet.freePorts(plan.relays());
        Path relayPart = work.newPart(name + "-relays");
        try (RelaySource relaySource =
                        source.relays(plan.relays(), EndToEndCommand.slotPrefix(relayPart));
                RelayFleet relays = RelayFleet.start(relaySource, plan, relayPart, ports)) {
            System.err.println("stages apart: stage 1, relays reading the binlog");
            relays.releaseTogether();
            CatchUp stage1 = relays.awaitCatchUp(source.relayEndScn(), source.events());
            System.err.println("stages apart: stage 2, consumers reading the relays' buffers");
            Delivery stage2;
            double relayCpu;
            long[] served;
            try (ConsumerFleet consumers =
                    ConsumerFleet.start(
                            specs.apply(ports),
                            consumerOptions.heap(),
                            consumerOptions.javaOptions(),
                            work.newPart(name + "-consumers"))) {
                consumers.awaitReady();
                double relayCpuBefore = relays.cpuSeconds();
                consumers.go();
                stage2 = consumers.await(source.events());
                relayCpu = relays.cpuSeconds() - relayCpuBefore;
                served = relays.servedResponsesAndEvents();
            }
            long events = source.events();
            return new Figures(
                    stage1.cpuSeconds() * 1e6 / events,
                    (relayCpu + stage2.cpuSeconds()) * 1e6 / events,
                    events / stage1.seconds(),
                    events / stage2.seconds(),
                    served[1] / (double) Math.max(1, served[0]));
        }
    }
}
