package io.changegrid.fetchers.mysql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The digests of statements {@code relay recover-schema} chose to skip, kept in the relay's state
 * directory (one per line) so that every restart that replays such a statement passes it again, as
 * for the digests of {@code source.ddlSkip}.
 *
 * <p>Written only by {@code recover-schema} while the relay is stopped; read when a fetcher opens.
 */
final class SkippedStatements {

    static final String FILE = "ddl-skip";

    private SkippedStatements() {}

    /** The recorded digests, none when the file does not exist. */
    static Set<String> load(Path stateDirectory) {
        Path file = stateDirectory.resolve(FILE);
        if (!Files.exists(file)) {
            return Set.of();
        }
        try {
            Set<String> digests = new LinkedHashSet<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String digest = line.strip();
                if (digest.isEmpty()) {
                    continue;
                }
                if (!DdlDigest.isDigest(digest)) {
                    throw new IllegalStateException(
                            "skipped statements file holds no digest: file="
                                    + file
                                    + ", line="
                                    + line);
                }
                digests.add(digest);
            }
            return digests;
        } catch (IOException e) {
            throw new UncheckedIOException("skipped statements could not be read: file=" + file, e);
        }
    }

    /** Records one more digest, forced to disk. */
    static void add(Path stateDirectory, String digest) throws IOException {
        Path file = stateDirectory.resolve(FILE);
        Files.writeString(
                file,
                digest + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.SYNC);
    }
}
