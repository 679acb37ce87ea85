package io.changegrid.consumer.pull;

import io.changegrid.consumer.buffer.ConsumerBuffer;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Copies one relay response body into the consumer buffer, once: straight from the HTTP client's
 * input stream into a region claimed before the request.
 *
 * <p>The relay sends bodies chunked (their length is known only at their end) and keeps them under
 * the {@code maxBytes} asked for unless one transaction is larger. So the body goes into the claim
 * of {@code fetch.maxBytes}; only a body that overflows it is read aside and copied once more into
 * a claim of its full size. A body with a Content-Length larger than the claim gets a claim of that
 * size up front.
 *
 * <p>Expected outcomes are return codes: {@link #TRUNCATED}, {@link #TOO_LARGE}, {@link #CLOSED}.
 *
 * <p>Not thread-safe: owned by the puller thread, as is the buffer's writer side.
 */
final class BodyReader {

    /** The body ended before its announced length. */
    static final int TRUNCATED = -1;

    /** The body is larger than the whole buffer: see {@link #sizeText()}. */
    static final int TOO_LARGE = -2;

    /** The buffer was closed while waiting for room. */
    static final int CLOSED = -3;

    private final ConsumerBuffer buffer;
    private final int claimBytes;
    private byte[] aside = new byte[0];
    private int offset;
    private String sizeText;

    /**
     * @param buffer the buffer to copy into
     * @param claimBytes the size of the claim made before each request
     */
    BodyReader(ConsumerBuffer buffer, int claimBytes) {
        this.buffer = buffer;
        this.claimBytes = claimBytes;
    }

    /**
     * Reads a whole body into the buffer.
     *
     * @param body the response body
     * @param contentLength the announced length, or -1
     * @param claim the offset of the claim of {@code claimBytes} made before the request
     * @return the body's length, its bytes at {@link #offset()} (claimed, not yet published), or a
     *     negative code
     */
    int read(InputStream body, long contentLength, int claim)
            throws IOException, InterruptedException {
        byte[] bytes = buffer.bytes();
        if (contentLength > claimBytes) {
            if (contentLength > buffer.capacity()) {
                sizeText = Long.toString(contentLength);
                return TOO_LARGE;
            }
            int length = (int) contentLength;
            if (!claim(length)) {
                return CLOSED;
            }
            return readInto(body, bytes, offset, length) == length ? length : TRUNCATED;
        }
        offset = claim;
        int length = readInto(body, bytes, claim, claimBytes);
        if (length <= claimBytes) {
            return contentLength >= 0 && length != contentLength ? TRUNCATED : length;
        }
        // Larger than the claim: one transaction larger than fetch.maxBytes.
        length = readAside(body, claim);
        if (length > buffer.capacity()) {
            sizeText = "more than " + buffer.capacity();
            return TOO_LARGE;
        }
        if (!claim(length)) {
            return CLOSED;
        }
        System.arraycopy(aside, 0, bytes, offset, length);
        return length;
    }

    /** Where the last body read starts in the buffer. */
    int offset() {
        return offset;
    }

    /** The size of the last body that was {@link #TOO_LARGE}, for the error message. */
    String sizeText() {
        return sizeText;
    }

    private boolean claim(int length) throws InterruptedException {
        int claimed = buffer.claim(length);
        if (claimed < 0) {
            return false;
        }
        offset = claimed;
        return true;
    }

    /**
     * Reads until the body ends or {@code room} bytes were read.
     *
     * @return the bytes read, or {@code room + 1} if the body is longer; the extra byte is then the
     *     first byte after the room, kept in {@link #aside}
     */
    private int readInto(InputStream in, byte[] into, int at, int room) throws IOException {
        int read = 0;
        while (read < room) {
            int n = in.read(into, at + read, room - read);
            if (n < 0) {
                return read;
            }
            read += n;
        }
        int extra = in.read();
        if (extra < 0) {
            return read;
        }
        ensureAside(room + 1);
        aside[room] = (byte) extra;
        return room + 1;
    }

    /**
     * Moves the claim's bytes in front of the extra byte in {@link #aside} and reads the rest of
     * the body after them.
     *
     * @return the body's length; more than the buffer's capacity if it does not fit (reading then
     *     stops)
     */
    private int readAside(InputStream in, int claim) throws IOException {
        System.arraycopy(buffer.bytes(), claim, aside, 0, claimBytes);
        int length = claimBytes + 1;
        while (length <= buffer.capacity()) {
            if (length == aside.length) {
                ensureAside(length + 1);
            }
            int n = in.read(aside, length, aside.length - length);
            if (n < 0) {
                return length;
            }
            length += n;
        }
        return length;
    }

    private void ensureAside(int bytes) {
        if (aside.length < bytes) {
            int size = (int) Math.min(Math.max(bytes, aside.length * 2L), buffer.capacity() + 1L);
            aside = Arrays.copyOf(aside, Math.max(size, bytes));
        }
    }
}
