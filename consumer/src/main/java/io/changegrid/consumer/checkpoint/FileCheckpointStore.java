package io.changegrid.consumer.checkpoint;

import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.CheckpointStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Keeps the checkpoint in a small text file, replaced atomically: {@code scn=4294967396} on the
 * first line, while a snapshot runs {@code snapshot=<cursor>} after it (a file without that line,
 * as every file written before snapshots existed, has no cursor), and {@code
 * timeline=mariadb-gtid:domain=0} once the relays' timeline is known. The new content goes to a
 * temporary file in the same directory, which is synced, renamed over the old file, and the
 * directory is synced so the rename survives a crash. A reader therefore sees the old checkpoint or
 * the new one, never a torn file.
 *
 * <p>Threading: {@link #load} and {@link #save} must not run concurrently (the consumer never
 * does).
 */
public final class FileCheckpointStore implements CheckpointStore {

    private static final String KEY = "scn=";
    private static final String TIMELINE = "timeline=";
    private static final String SNAPSHOT = "snapshot=";

    private final Path file;
    private final Path temporary;

    /** The timeline saved with the checkpoint, or null; set by the puller thread. */
    private volatile String timeline;

    /** A store in {@code file}; its directory is created on the first save if missing. */
    public FileCheckpointStore(Path file) {
        this.file = file.toAbsolutePath();
        this.temporary = this.file.resolveSibling(this.file.getFileName() + ".tmp");
    }

    /** The checkpoint file. */
    public Path file() {
        return file;
    }

    @Override
    public OptionalLong load() throws IOException {
        Optional<Checkpoint> checkpoint = loadCheckpoint();
        return checkpoint.isPresent()
                ? OptionalLong.of(checkpoint.get().scn())
                : OptionalLong.empty();
    }

    @Override
    public Optional<Checkpoint> loadCheckpoint() throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        Long scn = null;
        String snapshot = null;
        for (String line : text.split("\n")) {
            if (line.startsWith(KEY)) {
                try {
                    scn = Long.parseLong(line.substring(KEY.length()).trim());
                } catch (NumberFormatException e) {
                    throw new IOException(
                            "checkpoint file holds no SCN: file=" + file + ", line=" + line, e);
                }
            } else if (line.startsWith(SNAPSHOT) && line.length() > SNAPSHOT.length()) {
                snapshot = line.substring(SNAPSHOT.length()).trim();
            }
        }
        if (scn == null) {
            throw new IOException("checkpoint file holds no SCN: file=" + file + ", text=" + text);
        }
        return Optional.of(new Checkpoint(scn, snapshot));
    }

    /** The {@code timeline=} line of the file, if it has one (files before timelines have not). */
    @Override
    public Optional<String> loadTimeline() throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        for (String line : text.split("\n")) {
            if (line.startsWith(TIMELINE)) {
                timeline = line.substring(TIMELINE.length()).trim();
                return Optional.of(timeline);
            }
        }
        return Optional.empty();
    }

    @Override
    public void adoptTimeline(String adopted) {
        timeline = adopted;
    }

    @Override
    public void save(long scn) throws IOException {
        save(Checkpoint.at(scn));
    }

    @Override
    public void save(Checkpoint checkpoint) throws IOException {
        String text =
                KEY
                        + checkpoint.scn()
                        + "\n"
                        + (checkpoint.inSnapshot() ? SNAPSHOT + checkpoint.snapshot() + "\n" : "");
        Path directory = file.getParent();
        Files.createDirectories(directory);
        String onTimeline = timeline;
        if (onTimeline != null) {
            text += TIMELINE + onTimeline + "\n";
        }
        ByteBuffer content = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        try (FileChannel out =
                FileChannel.open(
                        temporary,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            while (content.hasRemaining()) {
                out.write(content);
            }
            out.force(true);
        }
        Files.move(
                temporary,
                file,
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    @Override
    public boolean keepsSnapshotCursor() {
        return true;
    }

    @Override
    public String toString() {
        return "FileCheckpointStore[" + file + "]";
    }
}
