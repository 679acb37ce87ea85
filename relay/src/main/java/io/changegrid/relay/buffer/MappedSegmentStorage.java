package io.changegrid.relay.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Segments in memory-mapped files of a directory, typically {@code /dev/shm} (tmpfs: memory, no
 * disk writes) or a local disk.
 *
 * <p>Each file is created, mapped and at once unlinked: the mapping keeps the memory alive, and
 * when the process ends, however it ends, the kernel frees it with nothing left in the directory.
 * Mapped memory is not counted against {@code -XX:MaxDirectMemorySize}; on tmpfs it counts as
 * shared memory of the process (and of its cgroup).
 *
 * <p>The files are sparse: pages are only taken when the writer first touches them. Because a write
 * to a page the file system cannot provide kills the JVM with {@code SIGBUS}, the directory must
 * have the whole capacity free at construction; this is checked, though space taken later by others
 * is not reserved.
 *
 * <p>Unlinking an open mapped file needs POSIX semantics (Linux, macOS). Thread-safe: holds only
 * the directory.
 *
 * @param directory an existing, writable directory
 */
public record MappedSegmentStorage(Path directory) implements SegmentStorage {

    private static final String FILE_PREFIX = "changegrid-event-buffer-";

    public MappedSegmentStorage {
        if (directory == null) {
            throw new IllegalArgumentException("mapped segment directory must be given: null");
        }
    }

    @Override
    public ByteBuffer[] allocate(int segmentCount, int segmentBytes) {
        if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
            throw new IllegalStateException(
                    "mapped segment directory is not a writable directory: directory=" + directory);
        }
        long needed = (long) segmentCount * segmentBytes;
        long usable = usableSpace();
        if (needed > usable) {
            throw new IllegalStateException(
                    "not enough space for mapped event buffer segments: directory="
                            + directory
                            + ", capacityBytes="
                            + needed
                            + ", usableBytes="
                            + usable);
        }
        ByteBuffer[] segments = new ByteBuffer[segmentCount];
        for (int i = 0; i < segmentCount; i++) {
            segments[i] = mapUnlinked(i, segmentBytes);
        }
        return segments;
    }

    private ByteBuffer mapUnlinked(int segment, int segmentBytes) {
        Path file = null;
        try {
            file = Files.createTempFile(directory, FILE_PREFIX, ".segment");
            try (FileChannel channel =
                    FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // Mapping past the end grows the file sparsely; the mapping outlives the channel.
                return channel.map(FileChannel.MapMode.READ_WRITE, 0, segmentBytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot map event buffer segment: directory="
                            + directory
                            + ", segment="
                            + segment
                            + ", segmentBytes="
                            + segmentBytes,
                    e);
        } finally {
            if (file != null) {
                unlink(file);
            }
        }
    }

    private static void unlink(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot unlink mapped event buffer segment: file=" + file, e);
        }
    }

    private long usableSpace() {
        try {
            return Files.getFileStore(directory).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read free space of mapped segment directory: directory=" + directory,
                    e);
        }
    }
}
