package io.changegrid.fetchers.mysql;

/**
 * The reused buffers that rows events' row images are copied into ({@link BinlogRows}), taken in
 * turn. With one buffer, a rows event's bytes are valid until the next rows event is read: enough
 * when the listeners run on the binlog client's thread. When events are handed to another thread
 * ({@link FetchPipeline}), the ring holds more buffers than can be in flight, so a buffer is reused
 * only after its event was handled.
 *
 * <p>A buffer is kept for reuse only up to {@link #KEPT_BYTES}: an event larger than that (a row
 * with a large BLOB) gets a buffer of its own, so a ring of a thousand buffers holds at most 32 MiB
 * however large the rows it has seen (16 MiB when every event fits the first size, as the servers'
 * default of 8 KiB rows events do).
 *
 * <p>Not thread-safe: the binlog client's thread takes buffers; the thread handling an event only
 * reads the bytes it was given.
 */
final class RowBuffers {

    private static final int INITIAL_BYTES = 16 * 1024;

    /** The largest buffer kept in the ring. */
    static final int KEPT_BYTES = 32 * 1024;

    private final byte[][] buffers;
    private int next;

    /** A ring of {@code count} buffers, each allocated when first taken. */
    RowBuffers(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("row buffers: count must be >= 1: count=" + count);
        }
        buffers = new byte[count][];
    }

    /** One buffer, for listeners that handle each event before the next one is read. */
    static RowBuffers single() {
        return new RowBuffers(1);
    }

    int count() {
        return buffers.length;
    }

    /**
     * The next buffer in turn, at least {@code length} bytes long; its contents are undefined. Past
     * {@link #KEPT_BYTES}, a new buffer that the ring does not keep.
     */
    byte[] take(int length) {
        int at = next;
        next = at + 1 == buffers.length ? 0 : at + 1;
        byte[] buffer = buffers[at];
        if (buffer == null || buffer.length < length) {
            if (length > KEPT_BYTES) {
                return new byte[length];
            }
            int current = buffer == null ? INITIAL_BYTES / 2 : buffer.length;
            buffer = new byte[Math.min(Math.max(length, current * 2), KEPT_BYTES)];
            buffers[at] = buffer;
        }
        return buffer;
    }
}
