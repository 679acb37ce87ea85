package io.changegrid.fetchers.postgresql;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.events.json.SchemaJson;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.history.CorruptHistoryException;
import io.changegrid.fetchers.history.HistoryFile;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The PostgreSQL fetcher's schema history: every schema version it registered, each at the SCN it
 * took effect, in a {@link HistoryFile} (the binlog fetcher's file rules). One JSON line per entry:
 *
 * <pre>{@code
 * {"scn":23451234,"schemas":[{...SchemaJson...}, ...]}
 * }</pre>
 *
 * The first line holds the versions registered at the fetcher's first start (the captured tables of
 * the catalog); each later line one version a Relation message brought, at {@code commitLsn - 1} of
 * its transaction (the SCN of its schema change). A restarted relay restores every version up to
 * its resume point, so the table ids and version numbers its consumers hold keep naming the same
 * shapes, and a consumer still gets an old version's schema.
 *
 * <p>Threading: the fetcher's thread only.
 */
final class PgSchemaHistory implements Closeable {

    /** The history's file name in the relay's state directory. */
    static final String FILE = "pg-schema-history.jsonl";

    private static final JsonFactory JSON = new JsonFactory();

    /** One line: the versions registered at one SCN. */
    record Entry(long scn, List<TableSchema> schemas) {}

    private static final HistoryFile.LineFormat<Entry> FORMAT =
            new HistoryFile.LineFormat<>() {
                @Override
                public Entry parse(String line) throws IOException {
                    return read(line);
                }

                @Override
                public long scn(Entry entry) {
                    return entry.scn();
                }
            };

    private final HistoryFile file;

    private PgSchemaHistory(HistoryFile file) {
        this.file = file;
    }

    /**
     * Starts a new history holding {@code versions} at {@code scn}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     */
    static PgSchemaHistory create(Path file, long scn, Collection<TableSchema> versions)
            throws IOException {
        return new PgSchemaHistory(
                HistoryFile.create(file, scn, write(new Entry(scn, List.copyOf(versions)))));
    }

    /**
     * Restores into {@code registry} every version registered up to {@code upToScn}, inclusive, and
     * removes the later ones from the file (the fetcher reads their Relation messages again).
     *
     * @throws CorruptHistoryException naming the file and line of an unreadable entry, or when the
     *     history starts after {@code upToScn}
     */
    static PgSchemaHistory load(Path file, long upToScn, SchemaRegistry registry)
            throws IOException {
        HistoryFile.Loaded<Entry> loaded = HistoryFile.load(file, upToScn, FORMAT);
        try {
            if (loaded.lines().isEmpty()) {
                throw new CorruptHistoryException(
                        "schema history starts after the resume position: file="
                                + file
                                + ", upToScn="
                                + upToScn
                                + (loaded.firstLater() == null
                                        ? ", the file is empty"
                                        : ", firstScn=" + loaded.firstLater().entry().scn()));
            }
            for (HistoryFile.Line<Entry> line : loaded.lines()) {
                for (TableSchema schema : line.entry().schemas()) {
                    try {
                        registry.restore(schema);
                    } catch (RuntimeException e) {
                        throw HistoryFile.corrupt(file, line.number(), e.getMessage(), e);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            loaded.file().close();
            throw e;
        }
        return new PgSchemaHistory(loaded.file());
    }

    /**
     * Appends a version at {@code scn}, forced to disk.
     *
     * @throws FetchFailedException if it cannot be written: the fetcher stops rather than publish a
     *     version a restart would not know
     */
    void append(long scn, TableSchema schema) {
        try {
            file.append(scn, write(new Entry(scn, List.of(schema))));
        } catch (IOException e) {
            throw new FetchFailedException(
                    "schema history could not be written: file="
                            + file.path()
                            + ", scn="
                            + scn
                            + ", table="
                            + schema.qualifiedName()
                            + ", reason="
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    static byte[] write(Entry entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonGenerator out = JSON.createGenerator(bytes)) {
            out.writeStartObject();
            out.writeNumberField("scn", entry.scn());
            out.writeArrayFieldStart("schemas");
            for (TableSchema schema : entry.schemas()) {
                SchemaJson.write(out, schema);
            }
            out.writeEndArray();
            out.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // writing into memory
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    static Entry read(String line) throws IOException {
        try (JsonParser in = JSON.createParser(line)) {
            expect(in.nextToken(), JsonToken.START_OBJECT, "entry");
            Long scn = null;
            List<TableSchema> schemas = null;
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String field = in.currentName();
                JsonToken value = in.nextToken();
                switch (field) {
                    case "scn" -> {
                        expect(value, JsonToken.VALUE_NUMBER_INT, field);
                        scn = in.getLongValue();
                    }
                    case "schemas" -> {
                        expect(value, JsonToken.START_ARRAY, field);
                        schemas = new ArrayList<>();
                        while (in.nextToken() == JsonToken.START_OBJECT) {
                            schemas.add(SchemaJson.read(in));
                        }
                    }
                    default -> in.skipChildren();
                }
            }
            if (scn == null || schemas == null) {
                throw new IOException("entry needs scn and schemas");
            }
            return new Entry(scn, schemas);
        }
    }

    private static void expect(JsonToken actual, JsonToken expected, String what)
            throws IOException {
        if (actual != expected) {
            throw new IOException(
                    "unexpected JSON: field="
                            + what
                            + ", expected="
                            + expected
                            + ", got="
                            + actual);
        }
    }
}
