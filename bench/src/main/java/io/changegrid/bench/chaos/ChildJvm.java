package io.changegrid.bench.chaos;

import io.changegrid.gridkit.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A component of the chaos grid run as its own JVM, so a kill is a real {@code kill -9}: the same
 * command line starts it again after a kill, its output appended to one log across restarts.
 *
 * <p>Threading: the chaos run's one control thread uses it.
 */
final class ChildJvm implements ChaosTarget {

    private final String name;
    private final List<String> command;
    private final Path log;
    private JavaProcess process;

    /**
     * The command line of a chaos component: a small heap, not pre-touched (nothing is timed here,
     * and six JVMs share the machine), the serial collector (fewer threads on few cores), and the
     * client compiler only: a component restarted after a kill is up sooner, and no JVM spends the
     * cores on optimising code the run's 40 transactions a second never need fast.
     */
    static List<String> command(
            String heap, List<String> jvmOptions, String main, List<String> args) {
        List<String> options = new ArrayList<>();
        options.add("-Xmx" + heap);
        options.add("-XX:+UseSerialGC");
        options.add("-XX:TieredStopAtLevel=1");
        options.addAll(jvmOptions);
        return JavaProcess.command(options, main, args);
    }

    ChildJvm(String name, List<String> command, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = log;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void start() throws IOException {
        process = JavaProcess.start(command, log);
    }

    @Override
    public void kill() throws InterruptedException {
        process.kill();
    }

    @Override
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public String exitDescription() {
        return "exit code " + process.process().exitValue() + ", log " + log;
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
