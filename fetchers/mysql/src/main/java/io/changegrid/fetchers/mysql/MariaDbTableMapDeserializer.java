package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads table map events, including those of tables with column types the binlog library does not
 * know, which it would fail on with a NullPointerException for every table map of the table, so
 * that one such table anywhere on the server stopped every relay reading it ({@link
 * TableMapReadingDeserializer} puts this reader in the library's place).
 *
 * <ul>
 *   <li>MariaDB's compressed columns ({@code VARCHAR ... COMPRESSED}, {@code BLOB/TEXT ...
 *       COMPRESSED}) are logged with the types {@value #BLOB_COMPRESSED} and {@value
 *       #VARCHAR_COMPRESSED}, whose metadata and cells are laid out as those of VARCHAR and BLOB:
 *       the codes are rewritten to those, so the library reads the cells as bytes (the compressed
 *       form, which {@link RowConverter} inflates; see {@link CompressedCells}).
 *   <li>Any other unknown code: the event keeps its table id, database, table and column types but
 *       no column metadata, whose layout depends on types the library does not know. Rows of such a
 *       table are never read when it is not captured; when it is, the {@link TransactionAssembler}
 *       refuses the table map naming table, column and type code.
 * </ul>
 *
 * <p>The server writes a table's map before the rows of every statement that changes it (so one per
 * row where an application changes a row a statement), and the maps repeat: one whose bytes are
 * those of the last table map of its table id is answered with the object read then, unparsed. The
 * {@link TableBindings} then recognises it by identity and keeps the decision it made on it.
 *
 * <p>Layout read here (the table map event's body): table id (6 bytes), flags (2), database name
 * (length byte, bytes, NUL), table name (the same), column count (packed integer), one type byte
 * per column, then metadata the library reads.
 *
 * <p>Not thread-safe: the binlog client's thread owns it.
 */
final class MariaDbTableMapDeserializer implements EventDataDeserializer<TableMapEventData> {

    /** MariaDB's MYSQL_TYPE_BLOB_COMPRESSED (any BLOB or TEXT size). */
    static final int BLOB_COMPRESSED = 140;

    /** MariaDB's MYSQL_TYPE_VARCHAR_COMPRESSED (VARCHAR and VARBINARY). */
    static final int VARCHAR_COMPRESSED = 141;

    /** Table ids remembered with their last table map: as many as the table-map cache holds. */
    private static final int REMEMBERED = 10_000;

    /** A table map's body as the server wrote it, and what was read from it. */
    private record Read(byte[] body, TableMapEventData map) {}

    private final TableMapEventDataDeserializer library = new TableMapEventDataDeserializer();

    private final Map<Long, Read> lastRead =
            new LinkedHashMap<>(1024, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, Read> eldest) {
                    return size() > REMEMBERED;
                }
            };

    private byte[] scratch = new byte[256];

    @Override
    public TableMapEventData deserialize(ByteArrayInputStream in) throws IOException {
        int length = in.available();
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        in.fill(scratch, 0, length);
        long tableId = littleEndian6(scratch);
        Read last = lastRead.get(tableId);
        if (last != null && Arrays.equals(last.body(), 0, last.body().length, scratch, 0, length)) {
            return last.map();
        }
        byte[] body = Arrays.copyOf(scratch, length);
        TableMapEventData map = read(Arrays.copyOf(scratch, length));
        lastRead.put(tableId, new Read(body, map));
        return map;
    }

    /** Reads a table map's body; rewrites the type codes of compressed columns in it. */
    private TableMapEventData read(byte[] body) throws IOException {
        int at = 8;
        at += (body[at] & 0xFF) + 2; // database: length, name, NUL
        at += (body[at] & 0xFF) + 2; // table
        int columns;
        int first = body[at] & 0xFF;
        if (first < 0xFB) {
            columns = first;
            at += 1;
        } else if (first == 0xFC) {
            columns = (body[at + 1] & 0xFF) | (body[at + 2] & 0xFF) << 8;
            at += 3;
        } else if (first == 0xFD) {
            columns =
                    (body[at + 1] & 0xFF)
                            | (body[at + 2] & 0xFF) << 8
                            | (body[at + 3] & 0xFF) << 16;
            at += 4;
        } else {
            throw new IOException("table map column count out of range: marker=" + first);
        }
        boolean known = true;
        for (int i = at; i < at + columns; i++) {
            int code = body[i] & 0xFF;
            if (code == VARCHAR_COMPRESSED) {
                body[i] = (byte) ColumnType.VARCHAR.getCode();
            } else if (code == BLOB_COMPRESSED) {
                body[i] = (byte) ColumnType.BLOB.getCode();
            } else if (ColumnType.byCode(code) == null) {
                known = false;
            }
        }
        return known ? library.deserialize(new ByteArrayInputStream(body)) : names(body, columns);
    }

    private static long littleEndian6(byte[] bytes) {
        long value = 0;
        for (int i = 5; i >= 0; i--) {
            value = value << 8 | (bytes[i] & 0xFF);
        }
        return value;
    }

    /**
     * Refuses a captured table one of whose binlog column types no reader here knows.
     *
     * @throws FetchFailedException naming table, column, source type, binlog type code and where
     */
    static void requireDecodable(TableMapEventData map, TableSchema schema, Object position) {
        byte[] types = map.getColumnTypes();
        for (int i = 0; i < types.length; i++) {
            int code = types[i] & 0xFF;
            if (ColumnType.byCode(code) == null) {
                throw new FetchFailedException(
                        "captured table has a column type the binlog reader cannot decode: table="
                                + schema.qualifiedName()
                                + ", column="
                                + schema.column(i).name()
                                + ", sourceType="
                                + schema.column(i).sourceType()
                                + ", binlogType="
                                + code
                                + ", position="
                                + position
                                + "; exclude the table from capture");
            }
        }
    }

    /** The head of a table map whose metadata cannot be read. */
    private static TableMapEventData names(byte[] body, int columns) throws IOException {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        TableMapEventData data = new TableMapEventData();
        data.setTableId(in.readLong(6));
        in.skip(3);
        data.setDatabase(in.readZeroTerminatedString());
        in.skip(1);
        data.setTable(in.readZeroTerminatedString());
        in.readPackedInteger();
        data.setColumnTypes(in.read(columns));
        data.setColumnMetadata(new int[columns]);
        return data;
    }
}
