package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * Who owns a scratch directory: the JVM that created it and, once started, the server process that
 * runs in it. Stored in the directory itself so that a later JVM can tell an abandoned directory
 * from a live one.
 *
 * @param jvmPid process id of the owning JVM
 * @param jvmStart start time of the owning JVM, or {@code null} where the OS does not report it;
 *     compared so that a recycled process id is not mistaken for the owner
 * @param serverPid process id of the server started in the directory, or 0 for none
 */
record ScratchOwner(long jvmPid, Instant jvmStart, long serverPid) {
    static final String FILE_NAME = "owner.properties";

    /** Process start times are derived from clock ticks; allow for rounding between readings. */
    private static final Duration START_TOLERANCE = Duration.ofSeconds(1);

    static ScratchOwner currentJvm() {
        var self = ProcessHandle.current();
        return new ScratchOwner(self.pid(), self.info().startInstant().orElse(null), 0);
    }

    ScratchOwner withServer(long pid) {
        return new ScratchOwner(jvmPid, jvmStart, pid);
    }

    /** Whether the owning JVM still runs, judged by process id and start time. */
    boolean jvmAlive() {
        return ProcessHandle.of(jvmPid)
                .filter(ProcessLiveness::running)
                .filter(handle -> sameStart(handle.info().startInstant()))
                .isPresent();
    }

    private boolean sameStart(Optional<Instant> actual) {
        if (jvmStart == null || actual.isEmpty()) {
            return true; // Unknown on this OS: trust the pid alone, erring towards keeping data.
        }
        return Duration.between(jvmStart, actual.get()).abs().compareTo(START_TOLERANCE) < 0;
    }

    void writeTo(Path dir) throws IOException {
        var properties = new Properties();
        properties.setProperty("jvm.pid", Long.toString(jvmPid));
        if (jvmStart != null) {
            properties.setProperty("jvm.start", jvmStart.toString());
        }
        if (serverPid != 0) {
            properties.setProperty("server.pid", Long.toString(serverPid));
        }
        // Written aside and moved into place so that a reaper never reads half a file.
        var staging = Files.createTempFile(dir, FILE_NAME, ".tmp");
        try (OutputStream out = Files.newOutputStream(staging)) {
            properties.store(out, "changegrid grid-kit scratch directory owner");
        }
        Files.move(
                staging,
                dir.resolve(FILE_NAME),
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
    }

    /** The owner recorded in {@code dir}, or empty when there is none or it cannot be read. */
    static Optional<ScratchOwner> readFrom(Path dir) {
        var file = dir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        var properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
            var start = properties.getProperty("jvm.start");
            var server = properties.getProperty("server.pid");
            return Optional.of(
                    new ScratchOwner(
                            Long.parseLong(properties.getProperty("jvm.pid", "0")),
                            start == null ? null : Instant.parse(start),
                            server == null ? 0 : Long.parseLong(server)));
        } catch (IOException | RuntimeException e) {
            // Unreadable means "owner unknown": the caller then decides by the directory's age.
            return Optional.empty();
        }
    }
}
