package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.SchemaRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persisted schema history of one source: an append-only file of JSON lines ({@link
 * HistoryJson}), a snapshot of the whole catalog first, then one line per DDL statement that
 * changed it, each with the SCN of the statement's transaction. After a restart at an older binlog
 * position, {@link #load} rebuilds the tracker and registry as of that position, so rows are
 * decoded with the schemas current then; the fetcher re-reads and re-applies the later DDL, which
 * produces the same table ids and versions again.
 *
 * <p>Every append is forced to disk before it returns. A crash in the middle of an append leaves a
 * last line without its newline; {@link #load} drops it with a warning (the DDL was never
 * acknowledged, so it will be read again). Any other unreadable line is an error naming the file
 * and line.
 *
 * <p>Threading: used by the tracker's one thread; not thread-safe.
 */
public final class SchemaHistory implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaHistory.class);

    /** A history opened by {@link #load}, with the state it holds as of the requested SCN. */
    public record Loaded(SchemaHistory history, SchemaTracker tracker, long scn) {}

    private final Path file;
    private final FileChannel channel;
    private long lastScn;

    private SchemaHistory(Path file, FileChannel channel, long lastScn) {
        this.file = file;
        this.channel = channel;
        this.lastScn = lastScn;
    }

    /**
     * Starts a new history with the tracker's current state as its snapshot.
     *
     * @param scn the position the snapshot was taken at
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     */
    public static SchemaHistory create(Path file, long scn, SchemaTracker tracker)
            throws IOException {
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        SchemaHistory history = new SchemaHistory(file, channel, scn);
        try {
            history.write(
                    new HistoryJson.Entry(scn, tracker.dialect(), null, tracker.stateAsOps()));
            forceDirectory(file);
        } catch (IOException | RuntimeException e) {
            history.close();
            throw e;
        }
        return history;
    }

    /** {@link #load(Path, long, SchemaRegistry)} into a new registry. */
    public static Loaded load(Path file, long upToScn) throws IOException {
        return load(file, upToScn, new SchemaRegistry());
    }

    /**
     * Rebuilds the tracker as of {@code upToScn}: the snapshot and every entry with an SCN up to
     * it, inclusive. Later entries are removed from the file, as is a torn last line.
     *
     * @param upToScn the SCN of the last transaction the caller has fully processed (its
     *     checkpoint): that transaction's entry is kept. A fetcher that resumes at the start of a
     *     transaction whose SCN is {@code s} reads {@code s} again, and so passes {@code s - 1}.
     * @param registry an empty registry, filled with every version up to {@code upToScn}
     * @throws CorruptHistoryException naming the file and line of an unreadable entry, or when the
     *     history does not start with a snapshot at or before {@code upToScn}
     */
    public static Loaded load(Path file, long upToScn, SchemaRegistry registry) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        Catalog catalog = new Catalog();
        ServerDialect dialect = null;
        long scn = Long.MIN_VALUE;
        int keepBytes = 0;
        int lineNumber = 0;
        for (int start = 0; start < bytes.length; ) {
            lineNumber++;
            int end = indexOf(bytes, (byte) '\n', start);
            if (end < 0) {
                LOG.warn(
                        "torn last line of schema history dropped: file={}, line={}, bytes={}",
                        file,
                        lineNumber,
                        bytes.length - start);
                break;
            }
            HistoryJson.Entry entry = parse(file, lineNumber, bytes, start, end);
            if (entry.isSnapshot() != (dialect == null)) {
                throw new CorruptHistoryException(
                        (dialect == null
                                        ? "schema history does not start with a snapshot"
                                        : "second snapshot in schema history")
                                + ": file="
                                + file
                                + ", line="
                                + lineNumber);
            }
            if (entry.scn() < scn) {
                throw new CorruptHistoryException(
                        "schema history goes back in SCN: file="
                                + file
                                + ", line="
                                + lineNumber
                                + ", scn="
                                + entry.scn()
                                + ", previousScn="
                                + scn);
            }
            if (entry.scn() > upToScn) {
                if (entry.isSnapshot()) {
                    throw new CorruptHistoryException(
                            "schema history starts after the requested position: file="
                                    + file
                                    + ", snapshotScn="
                                    + entry.scn()
                                    + ", upToScn="
                                    + upToScn);
                }
                break;
            }
            if (entry.isSnapshot()) {
                dialect = entry.dialect();
            }
            try {
                replay(entry.ops(), catalog, registry);
            } catch (RuntimeException e) {
                throw corrupt(
                        file, lineNumber, "entry does not fit the state: " + e.getMessage(), e);
            }
            scn = entry.scn();
            keepBytes = end + 1;
            start = end + 1;
        }
        if (dialect == null) {
            throw new CorruptHistoryException(
                    "schema history has no snapshot (interrupted creation?): file=" + file);
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE);
        try {
            if (keepBytes < bytes.length) {
                LOG.info(
                        "schema history truncated to the entries up to the restart position:"
                                + " file={}, upToScn={}, bytesRemoved={}",
                        file,
                        upToScn,
                        bytes.length - keepBytes);
                channel.truncate(keepBytes);
                channel.force(true);
            }
            channel.position(keepBytes);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        SchemaTracker tracker = new SchemaTracker(dialect, registry, catalog);
        return new Loaded(new SchemaHistory(file, channel, scn), tracker, scn);
    }

    /**
     * Appends what a DDL statement changed. An outcome that changed nothing persistent (only a
     * TRUNCATE) writes nothing.
     *
     * @param scn the SCN of the statement's transaction, not below the last appended
     * @throws IllegalArgumentException if {@code scn} goes back
     */
    public void append(long scn, String ddl, DdlOutcome.Applied applied) throws IOException {
        Objects.requireNonNull(ddl, "ddl");
        if (scn < lastScn) {
            throw new IllegalArgumentException(
                    "schema history SCN goes back: file="
                            + file
                            + ", scn="
                            + scn
                            + ", lastScn="
                            + lastScn);
        }
        if (applied.ops().isEmpty()) {
            return;
        }
        write(new HistoryJson.Entry(scn, null, ddl, applied.ops()));
        lastScn = scn;
    }

    /** The SCN of the last entry. */
    public long lastScn() {
        return lastScn;
    }

    public Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void write(HistoryJson.Entry entry) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(HistoryJson.write(entry));
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        // With metadata: an append grows the file, and the new length must survive a crash too.
        channel.force(true);
    }

    private static void replay(List<CatalogOp> ops, Catalog catalog, SchemaRegistry registry) {
        for (CatalogOp op : ops) {
            if (op instanceof CatalogOp.PutTable put) {
                registry.restore(put.schema());
            } else if (op instanceof CatalogOp.DropTable drop) {
                registry.drop(drop.name().database(), drop.name().table());
            }
            catalog.apply(op);
        }
    }

    private static HistoryJson.Entry parse(
            Path file, int lineNumber, byte[] bytes, int start, int end)
            throws CorruptHistoryException {
        try {
            String line =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes, start, end - start))
                            .toString();
            return HistoryJson.read(line);
        } catch (CharacterCodingException e) {
            throw corrupt(file, lineNumber, "not UTF-8", e);
        } catch (IOException | RuntimeException e) {
            throw corrupt(file, lineNumber, e.getMessage(), e);
        }
    }

    private static CorruptHistoryException corrupt(
            Path file, int lineNumber, String what, Exception cause) {
        return new CorruptHistoryException(
                "corrupt schema history line: file="
                        + file
                        + ", line="
                        + lineNumber
                        + ", error="
                        + what,
                cause);
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Makes the new file's directory entry durable; a file that is forced but not linked is lost.
     */
    private static void forceDirectory(Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory as a channel; the file itself is forced.
            LOG.debug("cannot force directory, file itself is forced: directory={}", directory, e);
        }
    }
}
