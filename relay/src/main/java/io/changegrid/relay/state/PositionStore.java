package io.changegrid.relay.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The relay's fetch position on disk: the SCN of the last transaction it published and the
 * fetcher's position right after it. Written atomically (temporary file, fsync, rename, fsync of
 * the directory), so after {@code kill -9} the file holds either the old or the new position, never
 * a torn one.
 *
 * <p>The position only ever names a transaction that was published before it was written, so a
 * restart resumes with the next one: no gap. Transactions published after the last write are read
 * again with the same SCNs, which consumers already skip by checkpoint.
 *
 * <p>Threading: written by the publisher thread only; reads happen at start.
 */
public final class PositionStore {

    /** A saved position. */
    public record SavedPosition(long scn, String resumePosition) {}

    private final Path file;
    private final Path temporary;

    public PositionStore(Path directory) {
        this.file = directory.resolve("position");
        this.temporary = directory.resolve("position.tmp");
    }

    /**
     * The saved position, or empty when the relay never published.
     *
     * @throws IllegalStateException naming the file if its content is not a position
     */
    public Optional<SavedPosition> load() {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("position file not readable: file=" + file, e);
        }
        String[] lines = text.split("\n");
        if (lines.length != 2 || !lines[0].startsWith("scn=") || !lines[1].startsWith("resume=")) {
            throw new IllegalStateException(
                    "position file is not a relay position: file=" + file + ", content=" + text);
        }
        try {
            return Optional.of(
                    new SavedPosition(
                            Long.parseLong(lines[0].substring(4)), lines[1].substring(7)));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "position file has a bad SCN: file=" + file + ", content=" + text, e);
        }
    }

    /** Saves a position durably and atomically. */
    public void save(long scn, String resumePosition) {
        byte[] bytes =
                ("scn=" + scn + "\nresume=" + resumePosition + "\n")
                        .getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel channel =
                    FileChannel.open(
                            temporary,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(
                        temporary,
                        file,
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException(
                        "state directory does not support atomic rename: dir=" + file.getParent(),
                        e);
            }
            try (FileChannel directory =
                    FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
                directory.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "position could not be saved: file=" + file + ", scn=" + scn, e);
        }
    }
}
