package io.changegrid.consumer.pull;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.buffer.ConsumerBuffer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BodyReaderTest {

    private static final int CAPACITY = 4096;
    private static final int CLAIM = 1024;

    private final ConsumerBuffer buffer = new ConsumerBuffer(CAPACITY, 16);
    private final BodyReader reader = new BodyReader(buffer, CLAIM);

    /** A body arriving in network-sized pieces of at most 100 bytes. */
    private static InputStream trickle(byte[] body) {
        return new ByteArrayInputStream(body) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 100));
            }
        };
    }

    private static byte[] body(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    private byte[] copied(int length) {
        return Arrays.copyOfRange(buffer.bytes(), reader.offset(), reader.offset() + length);
    }

    @Test
    void shouldCopyAChunkedBodyIntoTheClaimWhenItFits() throws Exception {
        byte[] body = body(700);
        int claim = buffer.claim(CLAIM);

        assertThat(reader.read(trickle(body), -1, claim)).isEqualTo(700);

        assertThat(reader.offset()).isEqualTo(claim);
        assertThat(copied(700)).isEqualTo(body);
    }

    @Test
    void shouldCopyABodyOfExactlyTheClaimsSizeWhenItEndsThere() throws Exception {
        byte[] body = body(CLAIM);

        assertThat(reader.read(trickle(body), -1, buffer.claim(CLAIM))).isEqualTo(CLAIM);
        assertThat(copied(CLAIM)).isEqualTo(body);
    }

    @Test
    void shouldClaimRoomForAllOfAChunkedBodyWhenItOverflowsTheClaim() throws Exception {
        buffer.claim(500);
        buffer.publish(500, 1, 0); // the new claim cannot start where the first one did
        byte[] body = body(2500);

        assertThat(reader.read(trickle(body), -1, buffer.claim(CLAIM))).isEqualTo(2500);

        assertThat(copied(2500)).isEqualTo(body);
    }

    @Test
    void shouldClaimTheAnnouncedLengthWhenItExceedsTheClaim() throws Exception {
        byte[] body = body(3000);

        assertThat(reader.read(trickle(body), 3000, buffer.claim(CLAIM))).isEqualTo(3000);
        assertThat(copied(3000)).isEqualTo(body);
    }

    @Test
    void shouldReportTruncatedWhenABodyEndsBeforeItsAnnouncedLength() throws Exception {
        assertThat(reader.read(trickle(body(500)), 600, buffer.claim(CLAIM)))
                .isEqualTo(BodyReader.TRUNCATED);
        assertThat(reader.read(trickle(body(2000)), 2100, buffer.claim(CLAIM)))
                .isEqualTo(BodyReader.TRUNCATED);
    }

    @Test
    void shouldReportTooLargeWhenABodyExceedsTheWholeBuffer() throws Exception {
        assertThat(reader.read(trickle(body(CAPACITY + 10)), -1, buffer.claim(CLAIM)))
                .isEqualTo(BodyReader.TOO_LARGE);
        assertThat(reader.sizeText()).isEqualTo("more than 4096");

        assertThat(reader.read(trickle(body(10)), 9000, buffer.claim(CLAIM)))
                .isEqualTo(BodyReader.TOO_LARGE);
        assertThat(reader.sizeText()).isEqualTo("9000");
    }
}
