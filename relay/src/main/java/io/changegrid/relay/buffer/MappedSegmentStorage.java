package io.changegrid.relay.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
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
 * <p>Every page is touched when the segment is mapped, so the memory is taken at start rather than
 * one page fault at a time on the writer's hot path. Because a write to a page the file system
 * cannot provide kills the JVM with {@code SIGBUS}, the directory must have the whole capacity free
 * at construction; this is checked first.
 *
 * <p>Unlinking an open mapped file needs POSIX semantics (Linux, macOS). Thread-safe: holds only
 * the directory.
 *
 * @param directory an existing, writable directory
 * @param preTouch whether every page is taken when the segment is mapped
 */
public record MappedSegmentStorage(Path directory, boolean preTouch) implements SegmentStorage {

    private static final int PAGE_BYTES = 4096;

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

    /**
     * Takes every page now. Without this the writer takes them one page fault at a time while it
     * appends, and on tmpfs those faults cost the relay about half its stage-1 throughput (see
     * docs/benchmarks.md); at start they cost a fraction of a second per GiB instead.
     */
    private static void touchEveryPage(MappedByteBuffer mapped, int segmentBytes) {
        for (int page = 0; page < segmentBytes; page += PAGE_BYTES) {
            mapped.put(page, (byte) 0);
        }
    }

    private ByteBuffer mapUnlinked(int segment, int segmentBytes) {
        Path file = null;
        try {
            file = Files.createTempFile(directory, FILE_PREFIX, ".segment");
            try (FileChannel channel =
                    FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                // Mapping past the end grows the file sparsely; the mapping outlives the channel.
                MappedByteBuffer mapped =
                        channel.map(FileChannel.MapMode.READ_WRITE, 0, segmentBytes);
                if (preTouch) {
                    touchEveryPage(mapped, segmentBytes);
                }
                return mapped;
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
