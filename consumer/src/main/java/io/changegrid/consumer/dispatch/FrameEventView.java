package io.changegrid.consumer.dispatch;

import io.changegrid.consumer.api.EventView;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The {@link EventView} flyweight: {@link #wrap}ped over each frame in turn, reading header fields
 * in place and decoding row images only on first use (once per event, cached until the next wrap).
 * The schema of the last table seen is kept, so consecutive events of one table look nothing up.
 *
 * <p>Not thread-safe: one per dispatcher.
 */
final class FrameEventView implements EventView {

    private final EventFrame frame = new EventFrame();
    private final ByteBuffer readOnly;
    private final List<SchemaRegistry> registries;
    private final ChangeEventDecoder[] decoders;
    private int source;
    private String transactionId;
    private ChangeEvent decoded;
    private int schemaSource = -1;
    private int schemaTableId;
    private int schemaVersion;
    private TableSchema schema;

    /**
     * @param buffer the buffer frames are read from
     * @param registries the schemas of each relay, by relay index
     */
    FrameEventView(ByteBuffer buffer, List<SchemaRegistry> registries) {
        this.readOnly = buffer.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
        this.registries = List.copyOf(registries);
        this.decoders = new ChangeEventDecoder[registries.size()];
        for (int i = 0; i < decoders.length; i++) {
            decoders[i] = new ChangeEventDecoder(registries.get(i));
        }
    }

    /** Points the view at the frame at {@code offset}, sent by relay {@code source}. */
    FrameEventView wrap(ByteBuffer buffer, int offset, int source, String transactionId) {
        frame.wrap(buffer, offset);
        this.source = source;
        this.transactionId = transactionId;
        this.decoded = null;
        return this;
    }

    @Override
    public int sourceId() {
        return frame.sourceId();
    }

    @Override
    public long scn() {
        return frame.scn();
    }

    @Override
    public int index() {
        return frame.index();
    }

    @Override
    public Operation operation() {
        return frame.operation();
    }

    @Override
    public long commitTimeMicros() {
        return frame.commitTimeMicros();
    }

    @Override
    public String transactionId() {
        return transactionId;
    }

    @Override
    public int partitionHash() {
        return frame.partitionHash();
    }

    @Override
    public int tableId() {
        return frame.tableId();
    }

    @Override
    public int schemaVersion() {
        return frame.schemaVersion();
    }

    @Override
    public TableSchema schema() {
        int tableId = frame.tableId();
        if (tableId == 0) {
            return null;
        }
        int version = frame.schemaVersion();
        if (source != schemaSource || tableId != schemaTableId || version != schemaVersion) {
            schema = registries.get(source).schema(tableId, version);
            schemaSource = source;
            schemaTableId = tableId;
            schemaVersion = version;
        }
        return schema;
    }

    @Override
    public String database() {
        TableSchema table = schema();
        return table == null ? null : table.database();
    }

    @Override
    public String table() {
        TableSchema table = schema();
        return table == null ? null : table.table();
    }

    @Override
    public Object[] key() {
        return decoded().key();
    }

    @Override
    public Object[] before() {
        return decoded().before();
    }

    @Override
    public Object[] after() {
        return decoded().after();
    }

    @Override
    public Object get(String column) {
        Operation op = frame.operation();
        if (!op.isRowChange()) {
            throw new IllegalStateException(
                    "not a row change: op="
                            + op
                            + ", scn="
                            + frame.scn()
                            + ", index="
                            + frame.index());
        }
        TableSchema table = schema();
        int index = table.indexOf(column);
        if (index < 0) {
            throw new IllegalArgumentException(
                    "unknown column: table=" + table.qualifiedName() + ", column=" + column);
        }
        ChangeEvent event = decoded();
        Object[] row = event.after() != null ? event.after() : event.before();
        return row[index];
    }

    @Override
    public String ddl() {
        return frame.operationCode() == Operation.SCHEMA_CHANGE.code() ? decoded().ddl() : null;
    }

    @Override
    public ChangeEvent toChangeEvent() {
        return decoders[source].decode(frame);
    }

    @Override
    public ByteBuffer frameBuffer() {
        return readOnly;
    }

    @Override
    public int frameOffset() {
        return frame.offset();
    }

    @Override
    public int frameLength() {
        return frame.length();
    }

    @Override
    public String toString() {
        return "EventView[scn="
                + frame.scn()
                + ", index="
                + frame.index()
                + ", op="
                + frame.operation()
                + ", tableId="
                + frame.tableId()
                + "]";
    }

    private ChangeEvent decoded() {
        if (decoded == null) {
            decoded = decoders[source].decode(frame);
        }
        return decoded;
    }
}
