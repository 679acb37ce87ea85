package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyHashTest {

    /**
     * Reference values of MurmurHash3_x86_32, seed 0 (cross-checked with Guava's murmur3_32_fixed).
     */
    @Test
    void shouldMatchTheReferenceMurmur3WhenHashingKnownVectors() {
        assertThat(hash("")).isEqualTo(0);
        assertThat(hash("a")).isEqualTo(1009084850);
        assertThat(hash("ab")).isEqualTo(-1681926305);
        assertThat(hash("abc")).isEqualTo(-1277324294);
        assertThat(hash("abcd")).isEqualTo(1139631978);
        assertThat(hash("hello")).isEqualTo(613153351);
        assertThat(hash("The quick brown fox jumps over the lazy dog")).isEqualTo(776992547);
    }

    @Test
    void shouldHashATableIdLikeItsFourLittleEndianBytes() {
        assertThat(KeyHash.ofTableId(7)).isEqualTo(1343918321);
        assertThat(KeyHash.ofTableId(123456)).isEqualTo(-1294369584);
    }

    @Test
    void shouldHashTheSameBytesAlikeWhereverTheyStandInABuffer() {
        ByteBuffer buffer = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        buffer.position(17);
        buffer.put("hello".getBytes(StandardCharsets.UTF_8));
        assertThat(KeyHash.murmur3(buffer, 17, 5)).isEqualTo(613153351);
    }

    @Test
    void shouldMapNegativeHashesIntoRangeWhenChoosingAPartition() {
        assertThat(KeyHash.partition(-1, 8)).isEqualTo(7);
        assertThat(KeyHash.partition(Integer.MIN_VALUE, 3)).isBetween(0, 2);
    }

    private static int hash(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return KeyHash.murmur3(
                ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN), 0, bytes.length);
    }
}
