package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

class CompressedCellsTest {

    /** As MariaDB 10.11 logged REPEAT('abc', 100) with column_compression_zlib_wrap=OFF. */
    private static final String RAW_DEFLATE_CELL = "8a012c4b4c4a4e1c45c42100";

    @Test
    void shouldInflateRawDeflateWhenTheHeaderSaysSo() {
        assertThat(CompressedCells.inflate(HexFormat.of().parseHex(RAW_DEFLATE_CELL)))
                .isEqualTo("abc".repeat(100).getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void shouldInflateZlibWrappedDataWhenBitThreeIsClear() {
        byte[] value = "xyz".repeat(70_000).getBytes(StandardCharsets.US_ASCII);
        byte[] cell = cell(0x83, 3, value.length, deflate(value, false));
        assertThat(CompressedCells.inflate(cell)).isEqualTo(value);
    }

    @Test
    void shouldReturnTheBytesAfterTheHeaderWhenTheValueWasStoredUncompressed() {
        assertThat(CompressedCells.inflate(new byte[] {0, 'h', 'i'}))
                .isEqualTo(new byte[] {'h', 'i'});
        assertThat(CompressedCells.inflate(new byte[0])).isEmpty();
    }

    @Test
    void shouldRefuseACellWhoseLengthDoesNotMatchItsData() {
        byte[] value = "abc".repeat(100).getBytes(StandardCharsets.US_ASCII);
        byte[] cell = cell(0x8a, 2, value.length + 1, deflate(value, true));
        assertThatThrownBy(() -> CompressedCells.inflate(cell))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("originalLength=301, inflated=300");
        assertThatThrownBy(() -> CompressedCells.inflate(new byte[] {0x05, 1}))
                .hasMessageContaining("unknown header: header=0x5");
    }

    private static byte[] cell(int header, int lengthBytes, int length, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header);
        for (int i = lengthBytes - 1; i >= 0; i--) {
            out.write(length >>> (8 * i));
        }
        out.writeBytes(data);
        return out.toByteArray();
    }

    private static byte[] deflate(byte[] value, boolean raw) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
        deflater.setInput(value);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        while (!deflater.finished()) {
            out.write(chunk, 0, deflater.deflate(chunk));
        }
        deflater.end();
        return out.toByteArray();
    }
}
