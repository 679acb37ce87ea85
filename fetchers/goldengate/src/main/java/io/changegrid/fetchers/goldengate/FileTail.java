package io.changegrid.fetchers.goldengate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads one file line by line while it may still grow: a line is handed out only once its newline
 * is there, so a partial last line stays unread until the writer completes it. The channel stays
 * open across the File Writer's rename, so the file is followed under its new name.
 *
 * <p>One buffer, reused; a line is valid until the next call. Not thread-safe.
 */
final class FileTail implements AutoCloseable {

    private final TrailFile file;
    private final FileChannel channel;

    /** What ends a record other than a newline (XML: {@code </transaction>}), or null. */
    private final byte[] terminator;

    private byte[] buffer = new byte[256 * 1024];
    private long bufferOffset;
    private int start;
    private int scanFrom;
    private int end;

    // The last line handed out.
    private int lineStart;
    private int lineLength;
    private long lineOffset;

    private FileTail(TrailFile file, FileChannel channel, long offset, byte[] terminator) {
        this.file = file;
        this.channel = channel;
        this.terminator = terminator;
        this.bufferOffset = offset;
    }

    /**
     * Opens a file at a line's offset.
     *
     * @return the tail, or null if the file was renamed since it was listed: list again
     * @throws FetchFailedException if the file is shorter than the offset
     */
    static FileTail open(TrailFile file, long offset, byte[] terminator) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(file.path(), StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null; // finalized (renamed) between the listing and now
        }
        if (channel.size() < offset) {
            long size = channel.size();
            channel.close();
            throw new FetchFailedException(
                    "file shorter than the position to resume from: file="
                            + file.path()
                            + ", offset="
                            + offset
                            + ", size="
                            + size);
        }
        return new FileTail(file, channel, offset, terminator);
    }

    TrailFile file() {
        return file;
    }

    /** Moves to the next complete line (or terminated record); false when there is none (yet). */
    boolean nextLine() {
        if (terminator != null) {
            return nextTerminated();
        }
        for (int i = scanFrom; i < end; i++) {
            if (buffer[i] == '\n') {
                lineStart = start;
                lineOffset = bufferOffset + start;
                int stop = i > start && buffer[i - 1] == '\r' ? i - 1 : i;
                lineLength = stop - start;
                start = i + 1;
                scanFrom = start;
                return true;
            }
        }
        scanFrom = end;
        return false;
    }

    private boolean nextTerminated() {
        int last = end - terminator.length;
        for (int i = scanFrom; i <= last; i++) {
            if (matches(i)) {
                int from = start;
                while (from < i && Character.isWhitespace(buffer[from])) {
                    from++; // a record is known by where its element starts
                }
                lineStart = from;
                lineOffset = bufferOffset + from;
                lineLength = i + terminator.length - from;
                start = i + terminator.length;
                scanFrom = start;
                return true;
            }
        }
        scanFrom = Math.max(start, end - terminator.length + 1);
        return false;
    }

    private boolean matches(int at) {
        for (int k = 0; k < terminator.length; k++) {
            if (buffer[at + k] != terminator[k]) {
                return false;
            }
        }
        return true;
    }

    byte[] buffer() {
        return buffer;
    }

    int lineStart() {
        return lineStart;
    }

    int lineLength() {
        return lineLength;
    }

    /** The byte offset of the current line in the file. */
    long lineOffset() {
        return lineOffset;
    }

    /** The byte offset after everything handed out: where the next line starts. */
    long nextOffset() {
        return bufferOffset + start;
    }

    /**
     * Whether bytes of an incomplete line (or record; whitespace between records aside) are
     * buffered.
     */
    boolean hasPartialLine() {
        if (terminator == null) {
            return start < end;
        }
        for (int i = start; i < end; i++) {
            if (!Character.isWhitespace(buffer[i])) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads what the writer appended since.
     *
     * @return the number of bytes read, 0 at the end of the file
     * @throws FetchFailedException if the file shrank below what was read
     */
    int fill() throws IOException {
        long readOffset = bufferOffset + end;
        long size = channel.size();
        if (size < readOffset) {
            throw new FetchFailedException(
                    "file shrank while being read: file="
                            + file.path()
                            + ", offset="
                            + readOffset
                            + ", size="
                            + size);
        }
        if (size == readOffset) {
            return 0;
        }
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            bufferOffset += start;
            end -= start;
            scanFrom -= start;
            start = 0;
        }
        if (end == buffer.length) {
            byte[] bigger = new byte[buffer.length * 2]; // a line longer than the buffer
            System.arraycopy(buffer, 0, bigger, 0, end);
            buffer = bigger;
        }
        int read =
                channel.read(ByteBuffer.wrap(buffer, end, buffer.length - end), bufferOffset + end);
        if (read > 0) {
            end += read;
        }
        return Math.max(read, 0);
    }

    Path path() {
        return file.path();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
