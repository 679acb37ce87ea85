package io.changegrid.bench.harness;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where a private source writes its binlog when it should stay in memory ({@code /dev/shm}): this
 * VM keeps little file data in its page cache, so a binlog on disk is read back from the disk by
 * the relays and the disk, not the relay, is measured. Named after the owning JVM's pid, so that
 * directories left by a killed harness are removed by the next one.
 */
final class BinlogDirectory {

    private static final String PREFIX = "changegrid-bench-binlog-";

    private BinlogDirectory() {}

    /** A new directory under {@code parent}, after removing those whose JVM is gone. */
    static Path create(Path parent) throws IOException {
        reap(parent);
        return Files.createTempDirectory(parent, PREFIX + ProcessHandle.current().pid() + "-");
    }

    /** Deletes the directory and what is in it. */
    static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    private static void reap(Path parent) throws IOException {
        try (DirectoryStream<Path> children = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path child : children) {
                String rest = child.getFileName().toString().substring(PREFIX.length());
                long pid = Long.parseLong(rest.substring(0, rest.indexOf('-')));
                if (ProcessHandle.of(pid).isEmpty()) {
                    delete(child);
                }
            }
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            // a name we did not make: leave it
        }
    }
}
