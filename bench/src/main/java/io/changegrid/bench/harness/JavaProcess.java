package io.changegrid.bench.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A child JVM on this JVM's class path: a relay or a measuring consumer, each its own process as in
 * the whitepaper. Heaps are pre-touched ({@code -XX:+AlwaysPreTouch}): first-touch page faults
 * otherwise land in the measured seconds (see docs/benchmarks.md, "What the profile changed").
 */
public final class JavaProcess {

    private JavaProcess() {}

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
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.add("-Xms" + heap);
        command.add("-XX:+UseG1GC");
        command.add("-XX:+AlwaysPreTouch");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main);
        command.addAll(args);
        return command;
    }

    /** Starts the command with its output (stdout and stderr) going to {@code log}. */
    public static Process start(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** The command without its class path, for logs. */
    public static String describe(List<String> command) {
        int classPath = command.indexOf("-cp");
        List<String> shown = new ArrayList<>(command.subList(0, classPath));
        shown.add("...");
        shown.addAll(command.subList(classPath + 2, command.size()));
        return String.join(" ", shown);
    }

    /** The CPU time a process has used so far, in seconds (0 once it is gone). */
    public static double cpuSeconds(ProcessHandle process) {
        return process.info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
    }

    /**
     * Stops a process: SIGTERM, then SIGKILL after 10 seconds, or at once when this thread is
     * interrupted (the interrupt stays set).
     */
    public static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
