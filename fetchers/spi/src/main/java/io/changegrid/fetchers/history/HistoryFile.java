package io.changegrid.fetchers.history;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An append-only file of UTF-8 lines, each recording one change at an SCN, never going back: the
 * persistence of a fetcher's schema history. What a line holds is the source's business ({@link
 * LineFormat}); this class owns the file: appends forced to disk before they return, and reading
 * back as of a restart position.
 *
 * <p>{@link #load} keeps the lines up to the requested SCN and removes the later ones (the fetcher
 * reads their changes again after the restart and appends them again). A crash in the middle of an
 * append leaves a last line without its newline: it is dropped with a warning (the change it
 * recorded was never acknowledged, so it is read again). Any other unreadable line is an error
 * naming the file and line.
 *
 * <p>Threading: one thread (the fetcher's); not thread-safe.
 */
public final class HistoryFile implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(HistoryFile.class);

    /**
     * What a line of one source's history holds.
     *
     * @param <E> the parsed line
     */
    public interface LineFormat<E> {

        /**
         * Parses one line (without its newline).
         *
         * @throws IOException or a runtime exception when the line is not an entry
         */
        E parse(String line) throws IOException;

        /** The SCN an entry records its change at. */
        long scn(E entry);
    }

    /** A parsed line and its line number (from 1), for errors that name it. */
    public record Line<E>(int number, E entry) {}

    /**
     * A history read back as of an SCN.
     *
     * @param file the open file, positioned to append after the kept lines
     * @param lines the lines kept: every line with an SCN up to the requested one
     * @param firstLater the first line past the requested SCN (now removed), or null
     */
    public record Loaded<E>(HistoryFile file, List<Line<E>> lines, Line<E> firstLater) {}

    private final Path path;
    private final FileChannel channel;
    private long lastScn;

    private HistoryFile(Path path, FileChannel channel, long lastScn) {
        this.path = path;
        this.channel = channel;
        this.lastScn = lastScn;
    }

    /**
     * Starts a new history whose first line is {@code firstLine}, e.g. a snapshot of the schemas at
     * the fetcher's start.
     *
     * @param firstLine the UTF-8 line, its newline included
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     */
    public static HistoryFile create(Path path, long scn, byte[] firstLine) throws IOException {
        FileChannel channel =
                FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        HistoryFile history = new HistoryFile(path, channel, scn);
        try {
            history.write(firstLine);
            forceDirectory(path);
        } catch (IOException | RuntimeException e) {
            history.close();
            throw e;
        }
        return history;
    }

    /**
     * Reads the history back as of {@code upToScn}: the lines with an SCN up to it, inclusive.
     * Later lines are removed from the file, as is a torn last line.
     *
     * @param upToScn the SCN of the last transaction the caller has fully processed: its line is
     *     kept
     * @throws CorruptHistoryException naming the file and line of an unreadable line or of an SCN
     *     that goes back
     */
    public static <E> Loaded<E> load(Path path, long upToScn, LineFormat<E> format)
            throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        List<Line<E>> kept = new ArrayList<>();
        Line<E> firstLater = null;
        long scn = Long.MIN_VALUE;
        int keepBytes = 0;
        int lineNumber = 0;
        for (int start = 0; start < bytes.length; ) {
            lineNumber++;
            int end = indexOf(bytes, (byte) '\n', start);
            if (end < 0) {
                LOG.warn(
                        "torn last line of schema history dropped: file={}, line={}, bytes={}",
                        path,
                        lineNumber,
                        bytes.length - start);
                break;
            }
            E entry = parse(path, lineNumber, bytes, start, end, format);
            long entryScn = format.scn(entry);
            if (entryScn < scn) {
                throw new CorruptHistoryException(
                        "schema history goes back in SCN: file="
                                + path
                                + ", line="
                                + lineNumber
                                + ", scn="
                                + entryScn
                                + ", previousScn="
                                + scn);
            }
            if (entryScn > upToScn) {
                firstLater = new Line<>(lineNumber, entry);
                break;
            }
            kept.add(new Line<>(lineNumber, entry));
            scn = entryScn;
            keepBytes = end + 1;
            start = end + 1;
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE);
        try {
            if (keepBytes < bytes.length) {
                LOG.info(
                        "schema history truncated to the entries up to the restart position:"
                                + " file={}, upToScn={}, bytesRemoved={}",
                        path,
                        upToScn,
                        bytes.length - keepBytes);
                channel.truncate(keepBytes);
                channel.force(true);
            }
            channel.position(keepBytes);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return new Loaded<>(new HistoryFile(path, channel, scn), kept, firstLater);
    }

    /**
     * Appends a line, forced to disk before this returns.
     *
     * @param line the UTF-8 line, its newline included
     * @throws IllegalArgumentException if {@code scn} goes back
     */
    public void append(long scn, byte[] line) throws IOException {
        checkScn(scn);
        write(line);
        lastScn = scn;
    }

    /**
     * @throws IllegalArgumentException if a line at {@code scn} would go back
     */
    public void checkScn(long scn) {
        if (scn < lastScn) {
            throw new IllegalArgumentException(
                    "schema history SCN goes back: file="
                            + path
                            + ", scn="
                            + scn
                            + ", lastScn="
                            + lastScn);
        }
    }

    /** The SCN of the last line. */
    public long lastScn() {
        return lastScn;
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void write(byte[] line) throws IOException {
        if (line.length == 0 || line[line.length - 1] != '\n') {
            throw new IllegalArgumentException(
                    "history line must end with a newline: file=" + path);
        }
        ByteBuffer buffer = ByteBuffer.wrap(line);
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        // With metadata: an append grows the file, and the new length must survive a crash too.
        channel.force(true);
    }

    private static <E> E parse(
            Path path, int lineNumber, byte[] bytes, int start, int end, LineFormat<E> format)
            throws CorruptHistoryException {
        try {
            String line =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes, start, end - start))
                            .toString();
            return format.parse(line);
        } catch (CharacterCodingException e) {
            throw corrupt(path, lineNumber, "not UTF-8", e);
        } catch (IOException | RuntimeException e) {
            throw corrupt(path, lineNumber, e.getMessage(), e);
        }
    }

    /** The error for a line that cannot be used: names the file, the line and what is wrong. */
    public static CorruptHistoryException corrupt(
            Path path, int lineNumber, String what, Exception cause) {
        return new CorruptHistoryException(
                "corrupt schema history line: file="
                        + path
                        + ", line="
                        + lineNumber
                        + ", error="
                        + what,
                cause);
    }

    private static int indexOf(byte[] bytes, byte b, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Makes the new file's directory entry durable; a file that is forced but not linked is lost.
     */
    private static void forceDirectory(Path path) throws IOException {
        Path directory = path.toAbsolutePath().getParent();
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some platforms cannot open a directory as a channel; the file itself is forced.
            LOG.debug("cannot force directory, file itself is forced: directory={}", directory, e);
        }
    }
}
