package io.changegrid.fetchers.mysql;

/**
 * The reused buffers that rows events' row images are copied into ({@link BinlogRows}), taken in
 * turn. With one buffer, a rows event's bytes are valid until the next rows event is read: enough
 * when the listeners run on the binlog client's thread. When events are handed to another thread
 * ({@link FetchPipeline}), the ring holds more buffers than can be in flight, so a buffer is reused
 * only after its event was handled.
 *
 * <p>The ring keeps at most {@link #KEPT_TOTAL_BYTES} in all, however large the rows it has seen:
 * each buffer grows up to its share of that ({@link #keptBytes()}: about 32 KiB in a ring of a
 * thousand, where the servers' default rows events of 8 KiB fit the first 16 KiB), and an event
 * larger than its share (a row with a large BLOB) gets a buffer of its own.
 *
 * <p>Not thread-safe: the binlog client's thread takes buffers; the thread handling an event only
 * reads the bytes it was given.
 */
final class RowBuffers {

    private static final int INITIAL_BYTES = 16 * 1024;

    /** The most the ring's buffers together keep. */
    static final int KEPT_TOTAL_BYTES = 32 * 1024 * 1024;

    private final byte[][] buffers;
    private final int keptBytes;
    private int next;

    /** A ring of {@code count} buffers, each allocated when first taken. */
    RowBuffers(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("row buffers: count must be >= 1: count=" + count);
        }
        buffers = new byte[count][];
        keptBytes = KEPT_TOTAL_BYTES / count;
    }

    /** One buffer, for listeners that handle each event before the next one is read. */
    static RowBuffers single() {
        return new RowBuffers(1);
    }

    int count() {
        return buffers.length;
    }

    /** The largest buffer the ring keeps: its share of {@link #KEPT_TOTAL_BYTES}. */
    int keptBytes() {
        return keptBytes;
    }

    /**
     * The next buffer in turn, at least {@code length} bytes long; its contents are undefined. Past
     * {@link #keptBytes()}, a new buffer that the ring does not keep.
     */
    byte[] take(int length) {
        int at = next;
        next = at + 1 == buffers.length ? 0 : at + 1;
        byte[] buffer = buffers[at];
        if (buffer == null || buffer.length < length) {
            if (length > keptBytes) {
                return new byte[length];
            }
            int current = buffer == null ? INITIAL_BYTES / 2 : buffer.length;
            buffer = new byte[Math.min(Math.max(length, current * 2), keptBytes)];
            buffers[at] = buffer;
        }
        return buffer;
    }
}
