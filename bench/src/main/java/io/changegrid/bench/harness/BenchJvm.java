package io.changegrid.bench.harness;

import io.changegrid.gridkit.process.JavaProcess;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a measured child JVM: a relay, a measuring consumer or a bare reader, each
 * its own process as in the whitepaper. Heaps are fixed and pre-touched ({@code
 * -XX:+AlwaysPreTouch}): first-touch page faults otherwise land in the measured seconds (see
 * docs/benchmarks.md, "What the profile changed").
 */
public final class BenchJvm {

    private BenchJvm() {}

    /**
     * The command line of a child JVM.
     *
     * @param heap -Xmx and -Xms, e.g. {@code 512m}
     * @param jvmOptions more JVM options, e.g. {@code -XX:MaxDirectMemorySize=...}
     * @param main the class whose {@code main} runs
     * @param args its arguments
     */
    public static List<String> command(
            String heap, List<String> jvmOptions, String main, List<String> args) {
        List<String> options = new ArrayList<>();
        options.add("-Xmx" + heap);
        options.add("-Xms" + heap);
        options.add("-XX:+UseG1GC");
        options.add("-XX:+AlwaysPreTouch");
        options.addAll(jvmOptions);
        return JavaProcess.command(options, main, args);
    }
}
