package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class TransactionPartsTest {

    private final SchemaRegistry registry = new SchemaRegistry();
    private final TableSchema schema =
            registry.register(
                    "shop",
                    "orders",
                    List.of(Column.of("id", ValueType.INT64), Column.of("note", ValueType.STRING)),
                    List.of("id"));

    @Test
    void shouldNumberEventsAcrossPartsWhenATransactionIsCut() {
        FrameEncoder encoder = new FrameEncoder(256);
        List<String> seen = new ArrayList<>();
        encoder.beginTransaction(1, 900, 5, "0-1-9");
        encoder.appendRowChange(Operation.INSERT, schema, null, new Object[] {1L, "a"});
        encoder.appendRowChange(Operation.INSERT, schema, null, new Object[] {2L, "b"});
        encoder.endPart();
        seen.addAll(frames(encoder));
        encoder.buffer().clear();
        encoder.appendRowChange(Operation.INSERT, schema, null, new Object[] {3L, "c"});
        encoder.endTransaction();
        seen.addAll(frames(encoder));

        assertThat(seen)
                .containsExactly(
                        "INSERT#0@900",
                        "INSERT#1@900",
                        "END_OF_TRANSACTION#2@900+continued",
                        "INSERT#2@900",
                        "END_OF_TRANSACTION#3@900");
    }

    @Test
    void shouldSizePartsBelowAQuarterOfASmallSegmentWhenAsked() {
        assertThat(FrameLayout.partBytes(64 << 20)).isEqualTo(FrameLayout.PART_BYTES);
        assertThat(FrameLayout.partBytes(64 << 10)).isEqualTo(16 << 10);
    }

    private static List<String> frames(FrameEncoder encoder) {
        ByteBuffer bytes = encoder.buffer().byteBuffer();
        int length = encoder.buffer().position();
        CRC32C crc = new CRC32C();
        EventFrame frame = new EventFrame();
        List<String> out = new ArrayList<>();
        for (int at = 0; at < length; at += frame.length()) {
            frame.wrapChecked(bytes, at, length, crc);
            out.add(
                    frame.operation()
                            + "#"
                            + frame.index()
                            + "@"
                            + frame.scn()
                            + (frame.continues() ? "+continued" : ""));
        }
        return out;
    }
}
