package io.changegrid.fetchers.goldengate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Lists the File Writer's directory in trail order: the files whose name ends with the active or
 * the finalized suffix, each known by the position of its first record (read once per name). A file
 * without a complete first line yet is not listed: the File Writer has just created it.
 *
 * <p>Threading: the fetcher's thread only.
 */
final class TrailDirectory {

    private final Path directory;
    private final String finalizedSuffix;
    private final String activeSuffix;
    private final TrailFormat format;
    private final Map<Path, Long> firstScnByPath = new HashMap<>();

    TrailDirectory(
            Path directory, String finalizedSuffix, String activeSuffix, TrailFormat format) {
        this.directory = directory;
        this.finalizedSuffix = finalizedSuffix;
        this.activeSuffix = activeSuffix;
        this.format = format;
    }

    TrailFormat format() {
        return format;
    }

    Path path() {
        return directory;
    }

    /** The files in trail order. */
    List<TrailFile> list() throws IOException {
        List<TrailFile> files = new ArrayList<>();
        Map<Path, Long> seen = new HashMap<>();
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path path : (Iterable<Path>) entries::iterator) {
                String name = path.getFileName().toString();
                // The active suffix first: it may end with the finalized one (".json.tmp",
                // ".json").
                boolean active = name.endsWith(activeSuffix);
                if (!active && !name.endsWith(finalizedSuffix)) {
                    continue;
                }
                Long first = firstScnByPath.get(path);
                if (first == null && format == TrailFormat.XML) {
                    first = sequenceScn(path, active ? activeSuffix : finalizedSuffix);
                } else if (first == null) {
                    first = firstScn(path); // null while the file has no complete first line
                }
                if (first != null) {
                    seen.put(path, first);
                    files.add(new TrailFile(path, first, !active));
                }
            }
        }
        firstScnByPath.keySet().retainAll(seen.keySet());
        firstScnByPath.putAll(seen);
        files.sort(Comparator.comparingLong(TrailFile::firstScn));
        for (int i = 1; i < files.size(); i++) {
            if (files.get(i).firstScn() == files.get(i - 1).firstScn()) {
                throw new FetchFailedException(
                        "two files begin at the same trail position: pos="
                                + TrailPosition.text(files.get(i).firstScn())
                                + ", files="
                                + files.get(i - 1).path()
                                + ", "
                                + files.get(i).path());
            }
        }
        return files;
    }

    /**
     * An XML trail file's place: its name's sequence number (the digits before the suffix, as in
     * {@code cg000000042.xml}) in the SCN's upper half; its records' byte offsets fill the lower.
     */
    static long sequenceScn(Path path, String suffix) {
        String name = path.getFileName().toString();
        String base = name.substring(0, name.length() - suffix.length());
        int digits = base.length();
        while (digits > 0 && Character.isDigit(base.charAt(digits - 1))) {
            digits--;
        }
        if (digits == base.length() || base.length() - digits > 9) {
            throw new FetchFailedException(
                    "XML trail file name without a sequence number (up to 9 digits before the suffix): file="
                            + path);
        }
        return Long.parseLong(base.substring(digits)) << 32;
    }

    /** The SCN of a file's first record, or null while it has no complete first line. */
    private static Long firstScn(Path path) throws IOException {
        byte[] line = firstLine(path);
        if (line == null) {
            return null;
        }
        try {
            return OperationParser.scnOf(line, line.length);
        } catch (RuntimeException e) {
            throw new FetchFailedException(
                    "bad first record: file=" + path + ", offset=0, problem=" + e.getMessage(), e);
        }
    }

    private static byte[] firstLine(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            while (true) {
                int read = channel.read(buffer);
                for (int i = 0; i < buffer.position(); i++) {
                    if (buffer.get(i) == '\n') {
                        byte[] line = new byte[i];
                        buffer.get(0, line);
                        return line;
                    }
                }
                if (read <= 0) {
                    return null;
                }
                if (!buffer.hasRemaining()) {
                    ByteBuffer bigger = ByteBuffer.allocate(buffer.capacity() * 2);
                    buffer.flip();
                    bigger.put(buffer);
                    buffer = bigger;
                }
            }
        } catch (NoSuchFileException e) {
            return null; // renamed between the listing and the read: the next listing has it
        }
    }
}
