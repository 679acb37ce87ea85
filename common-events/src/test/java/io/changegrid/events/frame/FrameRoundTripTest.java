package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.MySqlTypeSamples;
import io.changegrid.events.Operation;
import io.changegrid.events.json.EventJsonReader;
import io.changegrid.events.json.EventJsonWriter;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class FrameRoundTripTest {

    private final SchemaRegistry registry = new SchemaRegistry();
    private final TableSchema schema = MySqlTypeSamples.register(registry);

    @Test
    void shouldRoundTripEveryColumnTypeThroughBinaryFramesWhenValuesAreAtTheirEdges() {
        List<ChangeEvent> written = writeAllOperations();
        List<ChangeEvent> read = decodeAll();

        assertThat(read).hasSameSizeAs(written);
        for (int i = 0; i < written.size(); i++) {
            assertThat(read.get(i)).as("event %d", i).isEqualTo(written.get(i));
        }
    }

    @Test
    void shouldRoundTripEveryColumnTypeThroughJsonWhenValuesAreAtTheirEdges() throws IOException {
        writeAllOperations();
        EventJsonReader reader = new EventJsonReader(registry);
        for (ChangeEvent event : decodeAll()) {
            String json = toJson(event);
            assertThat(reader.read(json)).as(json).isEqualTo(event);
        }
    }

    @Test
    void shouldWriteHumanReadableJsonWhenValuesHaveSpecialForms() throws IOException {
        writeAllOperations();
        ChangeEvent insertOfEdgeRow = decodeAll().get(0);

        String json = toJson(insertOfEdgeRow);

        assertThat(json)
                .contains("\"op\":\"INSERT\"")
                .contains("\"key\":{\"id\":1}")
                .contains("\"c_bigint_u\":18446744073709551615")
                .contains(
                        "\"c_decimal\":\"-99999999999999999999999999999999999.999999999999999999999999999999\"")
                .contains("\"c_date\":\"0000-00-00\"")
                .contains("\"c_time\":\"-838:59:59\"")
                .contains("\"c_datetime\":\"0000-00-00T00:00:00\"")
                .contains(
                        "\"c_bit64\":\"1000000000000000000000000000000000000000000000000000000000000001\"")
                .contains("\"commitTime\":\"2026-11-21T09:00:00.123456Z\"");
    }

    @Test
    void shouldCarryTransactionStructureWhenEncodingATransaction() {
        FrameEncoder encoder = new FrameEncoder(1024);
        Object[] row = MySqlTypeSamples.edgeRows().get(4);
        encoder.beginTransaction(7, 4242L, 1L, "0-1-99");
        encoder.appendRowChange(Operation.INSERT, schema, null, row);
        encoder.appendRowChange(Operation.DELETE, schema, row, null);
        encoder.endTransaction();
        encoder.appendHeartbeat(7, 4243L, 2L);

        List<EventFrame> frames = new ArrayList<>();
        ByteBuffer bytes = encoder.buffer().byteBuffer();
        int limit = encoder.buffer().position();
        CRC32C crc = new CRC32C();
        for (int offset = 0; offset < limit; ) {
            EventFrame frame = new EventFrame().wrapChecked(bytes, offset, limit, crc);
            frames.add(frame);
            offset += frame.length();
        }

        assertThat(frames)
                .extracting(EventFrame::operation)
                .containsExactly(
                        Operation.INSERT,
                        Operation.DELETE,
                        Operation.END_OF_TRANSACTION,
                        Operation.HEARTBEAT);
        assertThat(frames).extracting(EventFrame::index).containsExactly(0, 1, 2, 0);
        assertThat(frames).extracting(EventFrame::scn).containsExactly(4242L, 4242L, 4242L, 4243L);
        assertThat(frames).extracting(EventFrame::sourceId).containsOnly(7);
        assertThat(frames.get(2).transactionId()).isEqualTo("0-1-99");
        assertThat(frames.get(3).transactionId()).isEmpty();
        // Same key, same hash: insert and delete of one row land in one partition.
        assertThat(frames.get(0).partitionHash()).isEqualTo(frames.get(1).partitionHash());
    }

    @Test
    void shouldDropOnlyTheFailedFrameWhenAValueDoesNotFitItsColumn() {
        FrameEncoder encoder = new FrameEncoder(64);
        encoder.beginTransaction(1, 10L, 0L, "t");
        encoder.appendRowChange(Operation.INSERT, schema, null, MySqlTypeSamples.edgeRows().get(4));
        int afterFirst = encoder.buffer().position();
        Object[] bad = MySqlTypeSamples.edgeRows().get(4);
        bad[1] = "not a number";

        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> encoder.appendRowChange(Operation.INSERT, schema, null, bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column=c_tinyint")
                .hasMessageContaining("type=INT64");
        assertThat(encoder.buffer().position()).isEqualTo(afterFirst);
        assertThat(encoder.eventCount()).isEqualTo(1);
    }

    private final FrameEncoder encoder = new FrameEncoder(256);

    /**
     * Per sample row: insert, update to the next row's values, delete; each its own transaction.
     */
    private List<ChangeEvent> writeAllOperations() {
        List<Object[]> rows = MySqlTypeSamples.edgeRows();
        List<ChangeEvent> written = new ArrayList<>();
        long scn = 1_000;
        long commitMicros = 1_795_251_600_123_456L; // 2026-11-21T09:00:00.123456Z
        for (int i = 0; i < rows.size(); i++) {
            Object[] row = rows.get(i);
            Object[] next = rows.get((i + 1) % rows.size()).clone();
            next[0] = row[0];
            String txn = "0-1-" + scn;
            encoder.beginTransaction(1, scn, commitMicros, txn);
            encoder.appendRowChange(Operation.INSERT, schema, null, row);
            encoder.appendRowChange(Operation.UPDATE, schema, row, next);
            encoder.appendRowChange(Operation.DELETE, schema, next, null);
            encoder.endTransaction();
            written.add(
                    new ChangeEvent(
                            1,
                            scn,
                            0,
                            commitMicros,
                            txn,
                            Operation.INSERT,
                            schema,
                            null,
                            row,
                            null));
            written.add(
                    new ChangeEvent(
                            1,
                            scn,
                            1,
                            commitMicros,
                            txn,
                            Operation.UPDATE,
                            schema,
                            row,
                            next,
                            null));
            written.add(
                    new ChangeEvent(
                            1,
                            scn,
                            2,
                            commitMicros,
                            txn,
                            Operation.DELETE,
                            schema,
                            next,
                            null,
                            null));
            written.add(
                    new ChangeEvent(
                            1,
                            scn,
                            3,
                            commitMicros,
                            txn,
                            Operation.END_OF_TRANSACTION,
                            null,
                            null,
                            null,
                            null));
            scn += 100;
        }
        TableSchema renamed = registry.rename("shop", "all_types", "shop", "every_type");
        encoder.beginTransaction(1, scn, commitMicros, "0-1-ddl");
        encoder.appendSchemaChange(renamed, "RENAME TABLE all_types TO every_type");
        encoder.endTransaction();
        written.add(
                new ChangeEvent(
                        1,
                        scn,
                        0,
                        commitMicros,
                        "0-1-ddl",
                        Operation.SCHEMA_CHANGE,
                        renamed,
                        null,
                        null,
                        "RENAME TABLE all_types TO every_type"));
        written.add(
                new ChangeEvent(
                        1,
                        scn,
                        1,
                        commitMicros,
                        "0-1-ddl",
                        Operation.END_OF_TRANSACTION,
                        null,
                        null,
                        null,
                        null));
        encoder.appendHeartbeat(1, scn + 1, commitMicros + 1);
        written.add(
                new ChangeEvent(
                        1,
                        scn + 1,
                        0,
                        commitMicros + 1,
                        "",
                        Operation.HEARTBEAT,
                        null,
                        null,
                        null,
                        null));
        return written;
    }

    private List<ChangeEvent> decodeAll() {
        ChangeEventDecoder decoder = new ChangeEventDecoder(registry);
        EventFrame frame = new EventFrame();
        CRC32C crc = new CRC32C();
        ByteBuffer bytes = encoder.buffer().byteBuffer();
        int limit = encoder.buffer().position();
        List<ChangeEvent> events = new ArrayList<>();
        for (int offset = 0; offset < limit; offset += frame.length()) {
            events.add(decoder.decode(frame.wrapChecked(bytes, offset, limit, crc)));
        }
        return events;
    }

    private static String toJson(ChangeEvent event) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = new JsonFactory().createGenerator(text)) {
            EventJsonWriter.write(out, event);
        }
        return text.toString();
    }
}
