package io.changegrid.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A run's scratch directory (configurations, logs, relay state): removed when the run succeeds,
 * kept with its logs when it fails, or always with {@code -Dbench.keepWork=true}.
 */
public final class WorkDirectory implements AutoCloseable {

    private final Path path;
    private boolean succeeded;

    private WorkDirectory(Path path) {
        this.path = path;
    }

    /** A new directory under the temp directory, named after the stage. */
    public static WorkDirectory create(String stage) throws IOException {
        return new WorkDirectory(Files.createTempDirectory("changegrid-bench-" + stage + "-"));
    }

    /** A new subdirectory for one part of the run (e.g. one relay configuration). */
    public Path newPart(String name) throws IOException {
        return Files.createDirectories(path.resolve(name));
    }

    public Path path() {
        return path;
    }

    /** The run succeeded: the directory goes on close. */
    public void succeeded() {
        succeeded = true;
    }

    @Override
    public void close() throws IOException {
        if (!succeeded || Boolean.getBoolean("bench.keepWork")) {
            System.err.println("logs and configurations kept: " + path);
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
