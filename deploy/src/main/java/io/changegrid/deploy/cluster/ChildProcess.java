package io.changegrid.deploy.cluster;

import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.gridkit.server.ProcessLiveness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One JVM of a local cluster: started in the background on the launcher's class path by {@link
 * JavaProcess}, its output appended to {@code logs/<name>.log} and its process id written to {@code
 * pids/<name>.pid}, so that a later {@code stop} (another launcher process) and tests find it. A
 * process is only ever signalled if its command line still names the cluster directory, so a
 * recycled process id never hits an unrelated process.
 */
final class ChildProcess {

    private static final String LOGBACK =
            "-Dlogback.configurationFile=io/changegrid/deploy/cluster/logback-child.xml";

    /** How often a stop looks whether a signalled process has ended. */
    private static final long EXIT_POLL_MILLIS = 20;

    private ChildProcess() {}

    /**
     * Starts {@code main} with {@code args}.
     *
     * @return the process id
     */
    static long start(
            ClusterDirectory directory,
            String name,
            List<String> javaOptions,
            Class<?> main,
            List<String> args)
            throws IOException {
        List<String> options = new ArrayList<>(javaOptions);
        options.add(LOGBACK);
        // Names the cluster directory on the command line, so stop() can recognize the process.
        options.add("-Dchangegrid.cluster=" + directory.root());
        Process process =
                JavaProcess.start(
                                JavaProcess.command(options, main.getName(), args),
                                directory.log(name))
                        .process();
        Path pid = directory.pidFile(name);
        Files.createDirectories(pid.getParent());
        Files.writeString(pid, Long.toString(process.pid()), StandardCharsets.US_ASCII);
        return process.pid();
    }

    /** The running process of {@code name}, if its pid file names one of this cluster's. */
    static Optional<ProcessHandle> find(ClusterDirectory directory, String name) {
        Path pid = directory.pidFile(name);
        if (!Files.exists(pid)) {
            return Optional.empty();
        }
        try {
            long id = Long.parseLong(Files.readString(pid, StandardCharsets.US_ASCII).trim());
            return ProcessHandle.of(id)
                    .filter(ProcessHandle::isAlive)
                    .filter(
                            handle ->
                                    handle.info()
                                            .commandLine()
                                            .map(line -> line.contains(directory.root().toString()))
                                            .orElse(false));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Stops {@code names} together: SIGTERM to each, then SIGKILL to those still running after
     * {@code grace} (one grace period for all); removes their pid files.
     *
     * @return for each name, whether a process was running
     */
    static List<Boolean> stopTogether(
            ClusterDirectory directory, List<String> names, Duration grace) throws IOException {
        List<Optional<ProcessHandle>> running = new ArrayList<>();
        for (String name : names) {
            Optional<ProcessHandle> handle = find(directory, name);
            handle.ifPresent(ProcessHandle::destroy);
            running.add(handle);
        }
        long deadline = System.nanoTime() + grace.toNanos();
        for (Optional<ProcessHandle> handle : running) {
            handle.ifPresent(each -> awaitExit(each, deadline));
        }
        List<Boolean> wasRunning = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Files.deleteIfExists(directory.pidFile(names.get(i)));
            wasRunning.add(running.get(i).isPresent());
        }
        return wasRunning;
    }

    /**
     * Waits for {@code handle} to end until {@code deadline}, then kills it and waits for that.
     * Polls {@link ProcessLiveness#running}: the process is not this JVM's child, so {@link
     * ProcessHandle#isAlive()} and {@code onExit()} learn of its end only once init has reaped the
     * zombie, which on some machines (a VM's init reaping on a timer) is a second or more after the
     * exit; each tier of a stop would wait that out.
     */
    private static void awaitExit(ProcessHandle handle, long deadline) {
        try {
            while (ProcessLiveness.running(handle) && System.nanoTime() < deadline) {
                Thread.sleep(EXIT_POLL_MILLIS);
            }
            if (ProcessLiveness.running(handle)) {
                handle.destroyForcibly();
                while (ProcessLiveness.running(handle)) {
                    Thread.sleep(EXIT_POLL_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until {@code ready} holds.
     *
     * @throws IllegalStateException with the tail of its log if the process ends or the time is up
     */
    static void awaitReady(
            ClusterDirectory directory, String name, Duration timeout, BooleanSupplier ready)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (find(directory, name).isEmpty()) {
                throw new IllegalStateException(
                        name + " ended while starting; its log:\n" + logTail(directory, name));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        name
                                + " not ready in time: timeout="
                                + timeout
                                + "; its log:\n"
                                + logTail(directory, name));
            }
            Thread.sleep(100);
        }
    }

    static String logTail(ClusterDirectory directory, String name) throws IOException {
        return JavaProcess.logTail(directory.log(name), 30);
    }
}
