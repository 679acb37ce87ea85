package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StoredBytesTest {

    @Test
    void integersOfEveryWidthReadAsByteBufferReadsThem() {
        SplittableRandom random = new SplittableRandom(7);
        byte[] bytes = new byte[64];
        for (int round = 0; round < 1_000; round++) {
            random.nextBytes(bytes);
            int at = random.nextInt(bytes.length - 8);
            for (int width = 1; width <= 8; width++) {
                assertThat(StoredBytes.littleEndian(bytes, at, width))
                        .as("little-endian, width %d", width)
                        .isEqualTo(reference(bytes, at, width, ByteOrder.LITTLE_ENDIAN));
                assertThat(StoredBytes.bigEndian(bytes, at, width))
                        .as("big-endian, width %d", width)
                        .isEqualTo(reference(bytes, at, width, ByteOrder.BIG_ENDIAN));
            }
            assertThat(StoredBytes.bigEndian(bytes, at, 0)).isZero();
        }
    }

    @Test
    void packedDecimalsReadAsTheServerStoresThem() {
        // DECIMAL(12,2) as the server packs them (decimal2bin): 1 leading digit in one byte, nine
        // in four, two fraction digits in one; the sign bit set for non-negative values and every
        // byte inverted for negative ones.
        int meta = 2 << 8 | 12;
        assertThat(StoredBytes.unscaledDecimal(bytes(0x80, 0, 0, 0, 0, 0), 0, meta)).isZero();
        assertThat(unscaled("1234567890.12", meta))
                .isEqualTo(
                        StoredBytes.unscaledDecimal(
                                bytes(0x81, 0x0D, 0xFB, 0x38, 0xD2, 0x0C), 0, meta));
        assertThat(unscaled("-1234567890.12", meta))
                .isEqualTo(
                        StoredBytes.unscaledDecimal(
                                bytes(0x7E, 0xF2, 0x04, 0xC7, 0x2D, 0xF3), 0, meta));
    }

    private static long unscaled(String decimal, int meta) {
        return new BigDecimal(decimal).unscaledValue().longValueExact();
    }

    private static long reference(byte[] bytes, int at, int width, ByteOrder order) {
        ByteBuffer wide = ByteBuffer.allocate(8).order(order);
        if (order == ByteOrder.BIG_ENDIAN) {
            wide.position(8 - width);
        }
        wide.put(bytes, at, width);
        return wide.getLong(0);
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }
}
