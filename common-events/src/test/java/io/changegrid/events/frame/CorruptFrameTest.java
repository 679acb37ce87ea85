package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.MySqlTypeSamples;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CorruptFrameTest {

    private final SchemaRegistry registry = new SchemaRegistry();
    private final CRC32C crc = new CRC32C();
    private TableSchema schema;
    private byte[] frame;

    @BeforeEach
    void encodeOneFrame() {
        schema = MySqlTypeSamples.register(registry);
        FrameEncoder encoder = new FrameEncoder(256);
        encoder.beginTransaction(1, 99L, 5L, "0-1-1");
        encoder.appendRowChange(Operation.INSERT, schema, null, MySqlTypeSamples.edgeRows().get(1));
        frame =
                java.util.Arrays.copyOf(
                        encoder.buffer().toByteArray(), encoder.buffer().position());
        // keep only the first frame
        int length = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        frame = java.util.Arrays.copyOf(frame, length);
    }

    @Test
    void shouldRejectTheFrameWhenAnySingleBitIsFlipped() {
        for (int i = 0; i < frame.length; i++) {
            for (int bit = 0; bit < 8; bit += 3) {
                byte[] damaged = frame.clone();
                damaged[i] ^= (byte) (1 << bit);
                ByteBuffer buffer = ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN);
                int at = i;
                assertThatThrownBy(() -> FrameLayout.checkFrame(buffer, 0, damaged.length, crc))
                        .as("flipped bit %d of byte %d", bit, at)
                        .isInstanceOf(CorruptFrameException.class)
                        .hasMessageContaining("offset=0");
            }
        }
    }

    @Test
    void shouldRejectTheFrameWhenItIsTruncatedAtAnyLength() {
        for (int length = 0; length < frame.length; length++) {
            ByteBuffer buffer =
                    ByteBuffer.wrap(frame, 0, length).slice().order(ByteOrder.LITTLE_ENDIAN);
            int limit = length;
            assertThatThrownBy(() -> FrameLayout.checkFrame(buffer, 0, limit, crc))
                    .as("truncated to %d bytes", length)
                    .isInstanceOf(CorruptFrameException.class)
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void shouldNameTheOffsetWhenAFrameInsideALargerBufferIsCorrupt() {
        byte[] two = new byte[frame.length * 2];
        System.arraycopy(frame, 0, two, 0, frame.length);
        System.arraycopy(frame, 0, two, frame.length, frame.length);
        two[frame.length + FrameLayout.HEADER_LENGTH + 3] ^= 1;
        ByteBuffer buffer = ByteBuffer.wrap(two).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(FrameLayout.checkFrame(buffer, 0, two.length, crc)).isEqualTo(frame.length);
        assertThatThrownBy(() -> FrameLayout.checkFrame(buffer, frame.length, two.length, crc))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("checksum mismatch")
                .hasMessageContaining("offset=" + frame.length);
    }

    @Test
    void shouldRejectTheImageWhenDecodedWithASchemaItDoesNotBelongTo() {
        TableSchema other =
                registry.register(
                        "shop",
                        "all_types",
                        List.of(new Column("id", ValueType.INT64, "int", false, 0)),
                        List.of("id"));
        ByteBuffer buffer = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(FrameLayout.SCHEMA_VERSION_OFFSET, other.version());
        buffer.putInt(FrameLayout.CRC_OFFSET, FrameLayout.crc32c(buffer, 0, frame.length, crc));
        EventFrame view = new EventFrame().wrapChecked(buffer, 0, frame.length, crc);

        assertThatThrownBy(() -> new ChangeEventDecoder(registry).decode(view))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("row image does not match schema")
                .hasMessageContaining("version=2")
                .hasMessageContaining("expected=1")
                .hasMessageContaining("found=" + schema.columnCount());
    }

    @Test
    void shouldRejectTheImageWhenItsColumnCountIsDamagedEvenWithAValidChecksum() {
        ByteBuffer buffer = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        EventFrame view = new EventFrame().wrap(buffer, 0);
        // A damaged frame that was re-sealed with a fresh checksum (a bug, not line noise).
        int afterAt = view.afterOffset();
        int afterLength = view.afterLength();
        buffer.put(afterAt, (byte) 0x7F); // column count becomes 127
        buffer.putInt(FrameLayout.CRC_OFFSET, FrameLayout.crc32c(buffer, 0, frame.length, crc));
        EventFrame resealed = new EventFrame().wrapChecked(buffer, 0, frame.length, crc);

        assertThat(afterLength).isPositive();
        assertThatThrownBy(() -> new ChangeEventDecoder(registry).decode(resealed))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("found=127")
                .hasMessageContaining("offset=" + afterAt);
    }

    @Test
    void shouldRejectAFrameWhoseSectionsDoNotFitItsOperation() {
        ByteBuffer buffer = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(FrameLayout.OPERATION_OFFSET, (byte) Operation.DELETE.code());
        buffer.putInt(FrameLayout.CRC_OFFSET, FrameLayout.crc32c(buffer, 0, frame.length, crc));

        assertThatThrownBy(() -> FrameLayout.checkFrame(buffer, 0, frame.length, crc))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("sections do not fit operation")
                .hasMessageContaining("op=DELETE");
    }

    @Test
    void shouldRejectUnknownOperationAndVersionEvenWithAValidChecksum() {
        ByteBuffer buffer = ByteBuffer.wrap(frame.clone()).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(FrameLayout.OPERATION_OFFSET, (byte) 99);
        buffer.putInt(FrameLayout.CRC_OFFSET, FrameLayout.crc32c(buffer, 0, frame.length, crc));
        assertThatThrownBy(() -> FrameLayout.checkFrame(buffer, 0, frame.length, crc))
                .hasMessageContaining("unknown operation: offset=0, code=99");

        ByteBuffer versioned = ByteBuffer.wrap(frame.clone()).order(ByteOrder.LITTLE_ENDIAN);
        versioned.put(FrameLayout.VERSION_OFFSET, (byte) 2);
        versioned.putInt(
                FrameLayout.CRC_OFFSET, FrameLayout.crc32c(versioned, 0, frame.length, crc));
        assertThatThrownBy(() -> FrameLayout.checkFrame(versioned, 0, frame.length, crc))
                .hasMessageContaining("unsupported frame version: offset=0, version=2");
    }

    @Test
    void shouldLeaveADirectBufferReadableWhenCheckingSeveralFramesInIt() {
        ByteBuffer direct =
                ByteBuffer.allocateDirect(frame.length * 3).order(ByteOrder.LITTLE_ENDIAN);
        direct.put(frame).put(frame).put(frame).clear();

        for (int offset = 0; offset < direct.capacity(); offset += frame.length) {
            assertThat(FrameLayout.checkFrame(direct, offset, direct.capacity(), crc))
                    .isEqualTo(frame.length);
        }
        assertThat(direct.position()).isZero();
        assertThat(direct.limit()).isEqualTo(direct.capacity());
    }

    @Test
    void shouldCheckFramesInDirectBuffersToo() {
        ByteBuffer direct = ByteBuffer.allocateDirect(frame.length).order(ByteOrder.LITTLE_ENDIAN);
        direct.put(frame).clear();

        assertThat(FrameLayout.checkFrame(direct, 0, frame.length, crc)).isEqualTo(frame.length);
        direct.put(100, (byte) (direct.get(100) ^ 0x10));
        assertThatThrownBy(() -> FrameLayout.checkFrame(direct, 0, frame.length, crc))
                .isInstanceOf(CorruptFrameException.class);
    }
}
