package io.changegrid.gridkit.process;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM on this JVM's class path: a relay, a consumer, an applier, a private source or
 * ZooKeeper of a local cluster, a bench fleet member. The one launcher of the quickstart, deploy,
 * bench and the tests; what differs between them (heap flags, log configuration, pid files) is
 * passed in as JVM options or kept by the caller.
 *
 * <p>Threading: an instance may be stopped from any thread; {@link #close()} is idempotent.
 */
public final class JavaProcess implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Process process;
    private final Path log;

    private JavaProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * The command line of a child JVM: {@code java <jvmOptions> -cp <this class path> <main>
     * <args>}.
     */
    public static List<String> command(List<String> jvmOptions, String main, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main);
        command.addAll(args);
        return command;
    }

    /**
     * Starts {@code command} with its output (stdout and stderr) appended to {@code log} and no
     * input, so a child never blocks on a terminal.
     */
    public static JavaProcess start(List<String> command, Path log) throws IOException {
        Path parent = log.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .redirectInput(ProcessBuilder.Redirect.from(nullDevice()))
                        .start();
        return new JavaProcess(process, log);
    }

    /**
     * Starts {@code command} with its stderr appended to {@code errorLog} and its stdout left to
     * the caller, who reads result lines from {@link Process#getInputStream()}.
     */
    public static Process startReadingOutput(List<String> command, Path errorLog)
            throws IOException {
        return new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(errorLog.toFile()))
                .start();
    }

    /** The command without its class path, for logs. */
    public static String describe(List<String> command) {
        int classPath = command.indexOf("-cp");
        if (classPath < 0) {
            return String.join(" ", command);
        }
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
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The last {@code lines} lines of {@code log}, or {@code (no log)} if it does not exist. */
    public static String logTail(Path log, int lines) throws IOException {
        if (!Files.exists(log)) {
            return "(no log)";
        }
        List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    public Process process() {
        return process;
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, as a crash: no shutdown hook, no flush. Waits up to 10 seconds for the end. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The last 40 lines of its log. */
    public String logTail() throws IOException {
        return logTail(log, 40);
    }

    /** CPU seconds the process has used so far. */
    public double cpuSeconds() {
        return cpuSeconds(process.toHandle());
    }

    /** Stops it as {@link #stop(Process)} does. */
    @Override
    public void close() {
        stop(process);
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
