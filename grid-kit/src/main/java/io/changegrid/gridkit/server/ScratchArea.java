package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one directory under {@code java.io.tmpdir} that holds every scratch directory of one kind of
 * fixture, e.g. {@code /tmp/changegrid-mariadb/}.
 *
 * <p>Keeping them together is what makes cleanup after a {@code kill -9} possible: a shutdown hook
 * never runs then, so each {@link #create} first reaps the directories whose owning JVM is gone,
 * killing the server process recorded in them. A server process is killed only if its command is
 * the expected one <em>and</em> its arguments name that directory, so that a recycled process id
 * can never take down an unrelated server (such as a shared MariaDB on port 3306).
 */
final class ScratchArea {
    private static final Logger LOG = LoggerFactory.getLogger(ScratchArea.class);

    /** A directory without an owner file is young while its creator is still writing that file. */
    private static final Duration UNCLAIMED_GRACE = Duration.ofMinutes(10);

    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

    private final Path root;
    private final String serverCommand;

    /**
     * @param root the directory that holds the scratch directories
     * @param serverCommand file name of the server binary started in them ({@code mariadbd}), or
     *     {@code null} when no process runs there
     */
    ScratchArea(Path root, String serverCommand) {
        this.root = root;
        this.serverCommand = serverCommand;
    }

    static ScratchArea inTempDir(String name, String serverCommand) {
        return new ScratchArea(Path.of(System.getProperty("java.io.tmpdir"), name), serverCommand);
    }

    Path root() {
        return root;
    }

    /** Reaps abandoned directories, then creates a fresh one owned by this JVM. */
    ScratchDirectory create(String prefix) {
        reapAbandoned();
        try {
            Files.createDirectories(root);
            var dir = Files.createTempDirectory(root, prefix);
            var owner = ScratchOwner.currentJvm();
            owner.writeTo(dir);
            return new ScratchDirectory(dir, owner);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create scratch directory: root=" + root, e);
        }
    }

    /** Removes the directories whose owning JVM no longer runs; returns what it removed. */
    List<Path> reapAbandoned() {
        var removed = new ArrayList<Path>();
        if (!Files.isDirectory(root)) {
            return removed;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, Files::isDirectory)) {
            for (var dir : dirs) {
                if (abandoned(dir)) {
                    reap(dir);
                    removed.add(dir);
                }
            }
        } catch (IOException e) {
            // Reaping is housekeeping: failing it must not fail the test that wants a server.
            LOG.warn("cannot scan for abandoned scratch directories: root={}", root, e);
        }
        return removed;
    }

    private boolean abandoned(Path dir) throws IOException {
        var owner = ScratchOwner.readFrom(dir);
        if (owner.isPresent()) {
            return !owner.get().jvmAlive();
        }
        var modified = Files.getLastModifiedTime(dir).toInstant();
        return modified.plus(UNCLAIMED_GRACE).isBefore(Instant.now());
    }

    private void reap(Path dir) {
        ScratchOwner.readFrom(dir)
                .filter(owner -> owner.serverPid() != 0)
                .flatMap(owner -> ProcessHandle.of(owner.serverPid()))
                .filter(ProcessLiveness::running)
                .ifPresent(process -> killIfOurs(process, dir));
        try {
            ScratchDirectory.deleteTree(dir);
            LOG.info("removed scratch directory of a JVM that is gone: dir={}", dir);
        } catch (UncheckedIOException e) {
            LOG.warn("cannot remove abandoned scratch directory: dir={}", dir, e);
        }
    }

    private void killIfOurs(ProcessHandle process, Path dir) {
        if (!runsIn(process, dir)) {
            LOG.info(
                    "not killing process recorded in abandoned scratch directory: it is not {} in"
                            + " that directory (pid reused?): pid={}, dir={}",
                    serverCommand,
                    process.pid(),
                    dir);
            return;
        }
        LOG.info("killing orphaned {}: pid={}, dir={}", serverCommand, process.pid(), dir);
        process.destroyForcibly();
        var deadline = Deadline.after(KILL_WAIT);
        while (ProcessLiveness.running(process)) {
            if (deadline.expired()) {
                LOG.warn(
                        "orphaned {} still running after SIGKILL: pid={}, waited={}",
                        serverCommand,
                        process.pid(),
                        KILL_WAIT);
                return;
            }
            try {
                process.onExit().get(POLL_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // Not gone yet (or only a zombie, which onExit() never reports): poll again.
            }
        }
    }

    private boolean runsIn(ProcessHandle process, Path dir) {
        if (serverCommand == null) {
            return false;
        }
        var info = process.info();
        var commandMatches =
                info.command()
                        .map(Path::of)
                        .map(path -> path.getFileName().toString().equals(serverCommand))
                        .orElse(false);
        var dirName = dir.toString();
        var argumentsMatch =
                info.arguments()
                        .map(args -> Arrays.stream(args).anyMatch(arg -> arg.contains(dirName)))
                        .orElse(false);
        return commandMatches && argumentsMatch;
    }
}
