package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class ByteCursorTest {

    @Test
    void shouldRefuseToReadPastTheRegionWhenALengthPointsBeyondIt() {
        ExpandableBuffer out = new ExpandableBuffer(16);
        out.putVarLong(10); // claims ten bytes follow
        out.putBytes(new byte[] {1, 2, 3}, 0, 3);
        out.putBytes(new byte[] {9, 9, 9, 9, 9, 9, 9}, 0, 7); // next frame's bytes, outside region
        ByteCursor cursor = new ByteCursor().wrap(out.byteBuffer(), 0, 4);

        assertThatThrownBy(cursor::readLength)
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("length past end of image: offset=0, length=10, remaining=3");
    }

    @Test
    void shouldRoundTripVarintsAtTheirBoundaries() {
        long[] values = {
            0, 1, 127, 128, 16383, 16384, Integer.MAX_VALUE, -1, Long.MIN_VALUE, Long.MAX_VALUE
        };
        ExpandableBuffer out = new ExpandableBuffer(8);
        for (long v : values) {
            out.putVarLong(v);
            out.putZigZagLong(v);
        }
        ByteCursor in = new ByteCursor().wrap(out.byteBuffer(), 0, out.position());
        for (long v : values) {
            assertThat(in.readVarLong()).isEqualTo(v);
            assertThat(in.readZigZagLong()).isEqualTo(v);
        }
        assertThat(in.remaining()).isZero();
    }

    @Test
    void shouldRejectAnOverlongVarint() {
        ByteBuffer bytes =
                ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0})
                        .order(ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> new ByteCursor().wrap(bytes, 0, 12).readVarLong())
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("varint longer than 10 bytes");
    }

    @Test
    void shouldWriteNonAsciiStringsAsUtf8WhenTheFastPathBailsOut() {
        ExpandableBuffer out = new ExpandableBuffer(8);
        String text = "ascii then \u00e9 and \uD83D\uDE00";
        out.putUtf8(text);
        out.putUtf8("x".repeat(300));
        ByteCursor in = new ByteCursor().wrap(out.byteBuffer(), 0, out.position());
        assertThat(in.readUtf8()).isEqualTo(text);
        assertThat(in.readUtf8()).isEqualTo("x".repeat(300));
    }
}
