package io.changegrid.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * The whitepaper's scaling set in one command: stage 1 with 1, 2 and 3 relays split by table (Table
 * 1), stage 2 with 1, 2 and 3 consumers (Table 2), end to end with 3 relays and 3 consumers (Table
 * 3), the latency run, then the report. The workload and source options given are passed to each
 * run.
 */
@Command(
        name = "scaling",
        mixinStandardHelpOptions = true,
        description =
                "Runs stage1 --relays 1,2,3, stage2 --consumers 1,2,3, e2e --topologies 3x3 and"
                        + " latency, then report. Workload and source options (--records,"
                        + " --source, ...) are passed to the stage runs.")
final class ScalingCommand implements Callable<Integer> {

    @Unmatched List<String> passed = new ArrayList<>();

    @Override
    public Integer call() {
        int status = 0;
        status = Math.max(status, run("stage1", "--relays", "1,2,3"));
        status = Math.max(status, run("stage2", "--consumers", "1,2,3"));
        status = Math.max(status, run("e2e", "--topologies", "3x3"));
        status = Math.max(status, runLatency());
        status = Math.max(status, BenchMain.execute("report"));
        return status;
    }

    private int run(String stage, String... own) {
        List<String> args = new ArrayList<>(List.of(stage));
        args.addAll(List.of(own));
        args.addAll(passed);
        return BenchMain.execute(args.toArray(String[]::new));
    }

    /** The latency run takes the source options only. */
    private int runLatency() {
        List<String> args = new ArrayList<>(List.of("latency"));
        for (int i = 0; i < passed.size(); i++) {
            String option = passed.get(i);
            if (option.startsWith("--source") || option.startsWith("--database")) {
                args.add(option);
                if (!option.contains("=") && i + 1 < passed.size()) {
                    args.add(passed.get(++i));
                }
            }
        }
        return BenchMain.execute(args.toArray(String[]::new));
    }
}
