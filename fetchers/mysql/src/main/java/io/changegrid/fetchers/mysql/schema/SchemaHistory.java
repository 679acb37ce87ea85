package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.fetchers.history.CorruptHistoryException;
import io.changegrid.fetchers.history.HistoryFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The persisted schema history of one source: a {@link HistoryFile} of JSON lines ({@link
 * HistoryJson}), a snapshot of the whole catalog first, then one line per DDL statement that
 * changed it, each with the SCN of the statement's transaction. After a restart at an older binlog
 * position, {@link #load} rebuilds the tracker and registry as of that position, so rows are
 * decoded with the schemas current then; the fetcher re-reads and re-applies the later DDL, which
 * produces the same table ids and versions again. The file's rules (appends forced, later and torn
 * lines removed at load) are {@link HistoryFile}'s.
 *
 * <p>Threading: used by the tracker's one thread; not thread-safe.
 */
public final class SchemaHistory implements Closeable {

    /** A history opened by {@link #load}, with the state it holds as of the requested SCN. */
    public record Loaded(SchemaHistory history, SchemaTracker tracker, long scn) {}

    private static final HistoryFile.LineFormat<HistoryJson.Entry> FORMAT =
            new HistoryFile.LineFormat<>() {
                @Override
                public HistoryJson.Entry parse(String line) throws IOException {
                    return HistoryJson.read(line);
                }

                @Override
                public long scn(HistoryJson.Entry entry) {
                    return entry.scn();
                }
            };

    private final HistoryFile file;

    private SchemaHistory(HistoryFile file) {
        this.file = file;
    }

    /**
     * Starts a new history with the tracker's current state as its snapshot.
     *
     * @param scn the position the snapshot was taken at
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     */
    public static SchemaHistory create(Path file, long scn, SchemaTracker tracker)
            throws IOException {
        return new SchemaHistory(
                HistoryFile.create(
                        file,
                        scn,
                        HistoryJson.write(
                                new HistoryJson.Entry(
                                        scn, tracker.dialect(), null, tracker.stateAsOps()))));
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
        HistoryFile.Loaded<HistoryJson.Entry> loaded = HistoryFile.load(file, upToScn, FORMAT);
        try {
            return replay(file, upToScn, registry, loaded);
        } catch (IOException | RuntimeException e) {
            loaded.file().close();
            throw e;
        }
    }

    private static Loaded replay(
            Path file,
            long upToScn,
            SchemaRegistry registry,
            HistoryFile.Loaded<HistoryJson.Entry> loaded)
            throws IOException {
        List<HistoryFile.Line<HistoryJson.Entry>> lines = loaded.lines();
        if (lines.isEmpty() && loaded.firstLater() != null) {
            if (!loaded.firstLater().entry().isSnapshot()) {
                throw new CorruptHistoryException(
                        "schema history does not start with a snapshot: file="
                                + file
                                + ", line="
                                + loaded.firstLater().number());
            }
            throw new CorruptHistoryException(
                    "schema history starts after the requested position: file="
                            + file
                            + ", snapshotScn="
                            + loaded.firstLater().entry().scn()
                            + ", upToScn="
                            + upToScn);
        }
        if (loaded.firstLater() != null && loaded.firstLater().entry().isSnapshot()) {
            throw new CorruptHistoryException(
                    "second snapshot in schema history: file="
                            + file
                            + ", line="
                            + loaded.firstLater().number());
        }
        Catalog catalog = new Catalog();
        ServerDialect dialect = null;
        for (HistoryFile.Line<HistoryJson.Entry> line : lines) {
            HistoryJson.Entry entry = line.entry();
            if (entry.isSnapshot() != (dialect == null)) {
                throw new CorruptHistoryException(
                        (dialect == null
                                        ? "schema history does not start with a snapshot"
                                        : "second snapshot in schema history")
                                + ": file="
                                + file
                                + ", line="
                                + line.number());
            }
            if (entry.isSnapshot()) {
                dialect = entry.dialect();
            }
            try {
                replay(entry.ops(), catalog, registry);
            } catch (RuntimeException e) {
                throw HistoryFile.corrupt(
                        file, line.number(), "entry does not fit the state: " + e.getMessage(), e);
            }
        }
        if (dialect == null) {
            throw new CorruptHistoryException(
                    "schema history has no snapshot (interrupted creation?): file=" + file);
        }
        SchemaTracker tracker = new SchemaTracker(dialect, registry, catalog);
        return new Loaded(new SchemaHistory(loaded.file()), tracker, loaded.file().lastScn());
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
        file.checkScn(scn);
        if (applied.ops().isEmpty()) {
            return;
        }
        file.append(scn, HistoryJson.write(new HistoryJson.Entry(scn, null, ddl, applied.ops())));
    }

    /** The SCN of the last entry. */
    public long lastScn() {
        return file.lastScn();
    }

    public Path file() {
        return file.path();
    }

    @Override
    public void close() throws IOException {
        file.close();
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
}
