package io.changegrid.bench;

import io.changegrid.bench.apply.ApplyCommand;
import io.changegrid.bench.buffer.BufferCapacityCommand;
import io.changegrid.bench.chaos.ChaosCommand;
import io.changegrid.bench.cluster.ClusterCommand;
import io.changegrid.bench.e2e.EndToEndCommand;
import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.latency.LatencyCommand;
import io.changegrid.bench.report.ProfileCommand;
import io.changegrid.bench.report.ReportCommand;
import io.changegrid.bench.snapshot.SnapshotCommand;
import io.changegrid.bench.stage1.Stage1Command;
import io.changegrid.bench.stage2.Stage2Command;
import io.changegrid.relay.RelayMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The benchmark harness: one command per whitepaper stage, a scaling set, and the report.
 *
 * <pre>
 * bin/bench stage1 --relays 1,2,3          # Table 1: binlog to relays
 * bin/bench stage2 --consumers 1,2,3       # Table 2: relay to consumers
 * bin/bench e2e --topologies 3x3           # Table 3: binlog to relays to consumers
 * bin/bench latency                        # commit to callback at a steady rate
 * bin/bench apply --targets postgres       # apply rate of the JDBC applier
 * bin/bench cluster --members 1,2,3        # consumer group throughput and crash recovery
 * bin/bench buffer-capacity                # the relay buffer's preload under a 512 MB heap
 * bin/bench snapshot --rows 1000000        # snapshot rows/s beside a live load (docs/bootstrap.md)
 * bin/bench chaos --duration 10m           # kill -9 of every component under load; no row lost
 * bin/bench scaling                        # all of the above, then the report
 * bin/bench report                         # results files to docs/benchmarks.md and charts
 * bin/bench profile relay-0.jfr            # where a relay's CPU went, from a JFR recording
 * </pre>
 *
 * Exit status: 0 when every run counted the events it generated, 1 when one did not or a run
 * failed, 2 for bad options (all listed).
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description =
                "changegrid benchmarks: the whitepaper's stage-1, stage-2, end-to-end and latency runs.",
        subcommands = {
            Stage1Command.class,
            Stage2Command.class,
            EndToEndCommand.class,
            LatencyCommand.class,
            ScalingCommand.class,
            ApplyCommand.class,
            ClusterCommand.class,
            BufferCapacityCommand.class,
            SnapshotCommand.class,
            ChaosCommand.class,
            ReportCommand.class,
            ProfileCommand.class
        })
public final class BenchMain {

    private BenchMain() {}

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the harness with {@code args}; returns the exit status. */
    public static int execute(String... args) {
        RelayMain.routeJavaUtilLogging();
        System.setProperty("java.awt.headless", "true");
        CommandLine commandLine = new CommandLine(BenchMain.class);
        commandLine.setExecutionExceptionHandler(
                (exception, line, parseResult) -> {
                    if (exception instanceof OptionProblems.BadOptionsException) {
                        line.getErr()
                                .println(line.getCommandName() + ": " + exception.getMessage());
                        return 2;
                    }
                    throw exception;
                });
        return commandLine.execute(args);
    }
}
