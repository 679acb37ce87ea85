package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One fixture's private directory under a {@link ScratchArea}, stamped with its {@link
 * ScratchOwner}.
 */
final class ScratchDirectory {
    private final Path path;
    private volatile ScratchOwner owner;

    ScratchDirectory(Path path, ScratchOwner owner) {
        this.path = path;
        this.owner = owner;
    }

    Path path() {
        return path;
    }

    Path resolve(String name) {
        return path.resolve(name);
    }

    /** Records the server process so that a later JVM can kill it if this one dies first. */
    void recordServer(long pid) {
        owner = owner.withServer(pid);
        try {
            owner.writeTo(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record server pid: dir=" + path, e);
        }
    }

    /** Deletes the directory and everything in it; a directory already gone is fine. */
    void delete() {
        deleteTree(path);
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            // Deepest first, so each directory is empty when its turn comes.
            for (var entry : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(entry);
            }
        } catch (NoSuchFileException e) {
            // Another JVM's reaper removed it at the same time: the goal is reached.
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete scratch directory: dir=" + root, e);
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw new UncheckedIOException(
                        "cannot delete scratch directory: dir=" + root, e.getCause());
            }
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
