package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.ChangeEvent;
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

class SnapshotFramesTest {

    private final SchemaRegistry registry = new SchemaRegistry();
    private final TableSchema schema =
            registry.register(
                    "shop",
                    "orders",
                    List.of(Column.of("id", ValueType.INT64), Column.of("note", ValueType.STRING)),
                    List.of("id"));

    @Test
    void shouldFlagEveryFrameAndKeepThemValidWhenAChunkIsMarked() {
        FrameEncoder encoder = new FrameEncoder(256);
        encoder.beginTransaction(1, 4242, 0, "snapshot");
        encoder.appendRowChange(Operation.INSERT, schema, null, new Object[] {1L, "a"});
        encoder.appendRowChange(Operation.INSERT, schema, null, new Object[] {2L, "b"});
        encoder.endTransaction();
        ByteBuffer frames = encoder.buffer().byteBuffer();
        int length = encoder.buffer().position();

        new SnapshotFrames()
                .mark(
                        frames,
                        0,
                        length,
                        FrameLayout.FLAG_SNAPSHOT | FrameLayout.FLAG_SNAPSHOT_COMPLETE);

        CRC32C crc = new CRC32C();
        EventFrame frame = new EventFrame();
        ChangeEventDecoder decoder = new ChangeEventDecoder(registry);
        List<ChangeEvent> rows = new ArrayList<>();
        int frameCount = 0;
        for (int at = 0; at < length; at += frame.length()) {
            frame.wrapChecked(frames, at, length, crc);
            assertThat(frame.isSnapshot()).isTrue();
            assertThat(frame.flags() & FrameLayout.FLAG_SNAPSHOT_COMPLETE).isNotZero();
            assertThat(frame.scn()).isEqualTo(4242);
            if (frame.operation() == Operation.INSERT) {
                rows.add(decoder.decode(frame));
            }
            frameCount++;
        }
        assertThat(frameCount).isEqualTo(3);
        assertThat(rows).extracting(e -> e.after()[1]).containsExactly("a", "b");
    }

    @Test
    void shouldLeaveLiveFramesUnflaggedWhenEncoded() {
        FrameEncoder encoder = new FrameEncoder(128);
        encoder.beginTransaction(1, 7, 0, "0-1-1");
        encoder.appendRowChange(Operation.INSERT, schema, null, new Object[] {1L, "a"});
        encoder.endTransaction();

        EventFrame frame = new EventFrame().wrap(encoder.buffer().byteBuffer(), 0);

        assertThat(frame.flags()).isZero();
        assertThat(frame.isSnapshot()).isFalse();
    }

    @Test
    void shouldRefuseFlagsWithoutTheSnapshotBitWhenMarking() {
        ByteBuffer empty = ByteBuffer.allocate(0);

        assertThatThrownBy(
                        () ->
                                new SnapshotFrames()
                                        .mark(empty, 0, 0, FrameLayout.FLAG_SNAPSHOT_COMPLETE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FLAG_SNAPSHOT");
    }
}
