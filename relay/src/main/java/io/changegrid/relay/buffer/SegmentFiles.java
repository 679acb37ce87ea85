package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.SegmentFileLayout.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent event buffer's segments: one file per segment slot in a directory of the relay's
 * own, kept across restarts so that {@link BufferRecovery} can serve them again. Each file is a
 * header page and the segment ({@link SegmentFileLayout}); both are mapped, the segment for the
 * {@link EventBuffer}, the header for the identity and the records that tie the segment to source
 * positions ({@link SegmentPositions}).
 *
 * <p>{@link #open} locks the directory (a second relay on it fails at start), then checks every
 * file's identity. Files of another source are refused: a relay never overwrites what may be
 * another relay's buffer. Files of this source under another segment size, segment count,
 * configuration or format are discarded, with a log line saying why, and made afresh; so are files
 * no configuration would use any more (slots beyond the segment count).
 *
 * <p>New files get every page taken at creation, as {@link MappedSegmentStorage} does, so that
 * neither the writer's hot path nor a full file system surprises the process later.
 *
 * <p>Threading: opened and recovered on the starting thread; then the {@link SegmentPositions}
 * methods are called by the buffer's writer only; {@link #close} once, after the writer stopped.
 */
public final class SegmentFiles implements SegmentStorage, SegmentPositions, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentFiles.class);
    private static final String LOCK_FILE = "changegrid-buffer.lock";
    private static final String FILE_PREFIX = "changegrid-buffer-";
    private static final String FILE_SUFFIX = ".segment";
    private static final int PAGE_BYTES = 4096;

    private final Path directory;
    private final BufferIdentity identity;
    private final int segmentCount;
    private final int segmentBytes;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final List<FileChannel> channels = new ArrayList<>();
    private final MappedByteBuffer[] segments;
    private final MappedByteBuffer[] headers;
    private final CRC32C crc = new CRC32C();
    private final long[] tailSaves;
    private String discarded;

    private SegmentFiles(
            Path directory, BufferIdentity identity, int segmentCount, int segmentBytes) {
        this.directory = directory;
        this.identity = identity;
        this.segmentCount = segmentCount;
        this.segmentBytes = segmentBytes;
        this.segments = new MappedByteBuffer[segmentCount];
        this.headers = new MappedByteBuffer[segmentCount];
        this.tailSaves = new long[segmentCount];
        try {
            Files.createDirectories(directory);
            lockChannel =
                    FileChannel.open(
                            directory.resolve(LOCK_FILE),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE);
            lock = tryLock(lockChannel);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot lock the buffer directory: directory=" + directory, e);
        }
        if (lock == null) {
            closeQuietly(lockChannel);
            throw new RefusedBufferFilesException(
                    "buffer directory in use by another process: directory="
                            + directory
                            + ", lock="
                            + LOCK_FILE
                            + "; give each relay a buffer.directory of its own");
        }
    }

    /** The lock, or null if another process (or this one, through another channel) holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    /**
     * Locks {@code directory} and maps its {@code segmentCount} segment files, creating missing
     * ones. Files that cannot be this buffer's are discarded ({@link #discarded()} says why) or, if
     * they are another source's, refused.
     *
     * @throws RefusedBufferFilesException if the directory is locked by another process or holds
     *     another source's files
     * @throws IllegalStateException if the directory lacks the space for new files
     * @throws UncheckedIOException if a file cannot be created or mapped
     */
    public static SegmentFiles open(
            Path directory, BufferIdentity identity, int segmentCount, int segmentBytes) {
        SegmentFiles files = new SegmentFiles(directory, identity, segmentCount, segmentBytes);
        try {
            files.map();
            return files;
        } catch (RuntimeException e) {
            files.close();
            throw e;
        }
    }

    private void map() {
        String problem = null;
        List<Path> missing = new ArrayList<>();
        for (int slot = 0; slot < segmentCount; slot++) {
            Path file = file(slot);
            if (!Files.exists(file)) {
                missing.add(file);
                continue;
            }
            String mismatch = checkExisting(file, slot);
            if (mismatch != null && problem == null) {
                problem = mismatch;
            }
        }
        List<Path> extra = extraFiles();
        if (problem == null && !extra.isEmpty()) {
            problem = "files beyond the configured segment count: files=" + extra;
        }
        if (problem == null && !missing.isEmpty() && missing.size() < segmentCount) {
            problem = "segment files missing: files=" + missing;
        }
        if (problem != null) {
            discard(problem, extra);
        }
        long needed = 0;
        for (int slot = 0; slot < segmentCount; slot++) {
            if (!Files.exists(file(slot))) {
                needed += (long) HEADER_BYTES + segmentBytes;
            }
        }
        checkSpace(needed);
        for (int slot = 0; slot < segmentCount; slot++) {
            mapSlot(slot);
        }
        if (discarded == null && missing.size() == segmentCount) {
            discarded = "no buffer files yet";
        }
    }

    /** Why an existing file cannot be this buffer's, or null if it can. */
    private String checkExisting(Path file, int slot) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size != (long) HEADER_BYTES + segmentBytes) {
                return "segment file size differs (another buffer.segmentSize?): file="
                        + file
                        + ", bytes="
                        + size
                        + ", expected="
                        + ((long) HEADER_BYTES + segmentBytes);
            }
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            channel.read(header, 0);
            return identityMismatch(file, slot, header);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read segment file: file=" + file, e);
        }
    }

    private String identityMismatch(Path file, int slot, ByteBuffer header) {
        if (header.getLong(MAGIC_OFFSET) != MAGIC
                || header.getInt(IDENTITY_CRC_OFFSET)
                        != SegmentFileLayout.crc(header, 0, IDENTITY_CRC_OFFSET, crc)) {
            return "not a segment file, or its identity is damaged: file=" + file;
        }
        int sourceId = header.getInt(SOURCE_ID_OFFSET);
        if (sourceId != identity.sourceId()) {
            throw new RefusedBufferFilesException(
                    "buffer file belongs to another source, refusing to use or overwrite it: file="
                            + file
                            + ", fileSourceId="
                            + sourceId
                            + ", source.id="
                            + identity.sourceId()
                            + "; give this relay a buffer.directory of its own, or delete the"
                            + " files if that source's buffer is no longer wanted");
        }
        if (header.getInt(VERSION_OFFSET) != VERSION) {
            return "segment file format differs: file="
                    + file
                    + ", version="
                    + header.getInt(VERSION_OFFSET)
                    + ", expected="
                    + VERSION;
        }
        if (header.getInt(SLOT_OFFSET) != slot
                || header.getInt(SEGMENT_BYTES_OFFSET) != segmentBytes
                || header.getInt(SEGMENT_COUNT_OFFSET) != segmentCount) {
            return "buffer layout differs (buffer.capacity or buffer.segmentSize changed): file="
                    + file
                    + ", slot="
                    + header.getInt(SLOT_OFFSET)
                    + ", segmentBytes="
                    + header.getInt(SEGMENT_BYTES_OFFSET)
                    + ", segmentCount="
                    + header.getInt(SEGMENT_COUNT_OFFSET)
                    + ", expected slot="
                    + slot
                    + ", segmentBytes="
                    + segmentBytes
                    + ", segmentCount="
                    + segmentCount;
        }
        if (header.getLong(FINGERPRINT_OFFSET) != identity.fingerprint()) {
            return "configuration differs (source, capture or policies changed): file="
                    + file
                    + ", fingerprint="
                    + Long.toHexString(header.getLong(FINGERPRINT_OFFSET))
                    + ", expected="
                    + Long.toHexString(identity.fingerprint());
        }
        return null;
    }

    /** Deletes every buffer file of the directory: none can be used. */
    private void discard(String reason, List<Path> extra) {
        discarded = reason;
        LOG.warn(
                "buffer files discarded, the buffer starts empty: {}; directory={}",
                reason,
                directory);
        try {
            for (int slot = 0; slot < segmentCount; slot++) {
                Files.deleteIfExists(file(slot));
            }
            for (Path file : extra) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot delete discarded buffer files: directory=" + directory, e);
        }
    }

    private List<Path> extraFiles() {
        List<Path> extra = new ArrayList<>();
        try (DirectoryStream<Path> files =
                Files.newDirectoryStream(directory, FILE_PREFIX + "*" + FILE_SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                String number =
                        name.substring(FILE_PREFIX.length(), name.length() - FILE_SUFFIX.length());
                if (!number.matches("\\d{1,9}") || Integer.parseInt(number) >= segmentCount) {
                    extra.add(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list buffer directory: " + directory, e);
        }
        return extra;
    }

    private void checkSpace(long needed) {
        long usable;
        try {
            usable = Files.getFileStore(directory).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read free space of buffer directory: directory=" + directory, e);
        }
        if (needed > usable) {
            throw new IllegalStateException(
                    "not enough space for buffer segment files: directory="
                            + directory
                            + ", neededBytes="
                            + needed
                            + ", usableBytes="
                            + usable);
        }
    }

    private void mapSlot(int slot) {
        Path file = file(slot);
        boolean created = !Files.exists(file);
        try {
            FileChannel channel =
                    FileChannel.open(
                            file,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
            channels.add(channel);
            MappedByteBuffer header = channel.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_BYTES);
            MappedByteBuffer segment =
                    channel.map(FileChannel.MapMode.READ_WRITE, HEADER_BYTES, segmentBytes);
            header.order(ByteOrder.LITTLE_ENDIAN);
            segment.order(ByteOrder.LITTLE_ENDIAN);
            // Takes every page now: zeros into a new file, each byte back into itself otherwise.
            for (int page = 0; page < segmentBytes; page += PAGE_BYTES) {
                segment.put(page, created ? 0 : segment.get(page));
            }
            if (created) {
                writeIdentity(header, slot);
            }
            headers[slot] = header;
            segments[slot] = segment;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot map buffer segment file: file="
                            + file
                            + ", segmentBytes="
                            + segmentBytes,
                    e);
        }
    }

    private void writeIdentity(ByteBuffer header, int slot) {
        header.putLong(MAGIC_OFFSET, MAGIC);
        header.putInt(VERSION_OFFSET, VERSION);
        header.putInt(SLOT_OFFSET, slot);
        header.putInt(SEGMENT_BYTES_OFFSET, segmentBytes);
        header.putInt(SEGMENT_COUNT_OFFSET, segmentCount);
        header.putInt(SOURCE_ID_OFFSET, identity.sourceId());
        header.putLong(FINGERPRINT_OFFSET, identity.fingerprint());
        header.putInt(
                IDENTITY_CRC_OFFSET, SegmentFileLayout.crc(header, 0, IDENTITY_CRC_OFFSET, crc));
    }

    Path file(int slot) {
        return directory.resolve(String.format("%s%05d%s", FILE_PREFIX, slot, FILE_SUFFIX));
    }

    /** Why the files hold nothing to recover (created now, or discarded), or null if they may. */
    public String discarded() {
        return discarded;
    }

    /** The buffer directory. */
    public Path directory() {
        return directory;
    }

    @Override
    public ByteBuffer[] allocate(int count, int bytes) {
        if (count != segmentCount || bytes != segmentBytes) {
            throw new IllegalArgumentException(
                    "buffer config differs from its segment files: segments="
                            + count
                            + ", segmentBytes="
                            + bytes
                            + ", files="
                            + segmentCount
                            + " of "
                            + segmentBytes);
        }
        return segments.clone();
    }

    /**
     * Forgets every start and tail record, so that nothing written before is recovered with what is
     * written from now on: for a buffer that starts empty. Forced to the device at once.
     */
    public void forgetRecords() {
        for (MappedByteBuffer header : headers) {
            for (int at = START_OFFSET; at < TAIL_B_OFFSET + RECORD_BYTES; at += Long.BYTES) {
                header.putLong(at, 0);
            }
            header.force();
        }
        Arrays.fill(tailSaves, 0);
    }

    @Override
    public void segmentStarted(long sequence, long floorScn, String floorPosition) {
        ByteBuffer header = headers[slotOf(sequence)];
        int base = START_OFFSET;
        // The sequence is invalidated first: a record torn half-way must not pass for the old one.
        header.putInt(base + RECORD_CRC, 0);
        header.putLong(base + START_SEQUENCE, sequence);
        header.putLong(base + START_FLOOR_SCN, floorScn);
        SegmentFileLayout.putPosition(
                header,
                base + START_POSITION_LENGTH,
                base + START_POSITION,
                floorPosition.getBytes(StandardCharsets.UTF_8));
        header.putInt(
                base + RECORD_CRC, SegmentFileLayout.crc(header, base, base + RECORD_CRC, crc));
    }

    @Override
    public void appended(long sequence, long scn, int endOffset, String position) {
        int slot = slotOf(sequence);
        ByteBuffer header = headers[slot];
        long save = ++tailSaves[slot];
        int base = (save & 1) == 0 ? TAIL_A_OFFSET : TAIL_B_OFFSET;
        header.putInt(base + RECORD_CRC, 0);
        header.putLong(base + TAIL_SEQUENCE, sequence);
        header.putLong(base + TAIL_SAVE_COUNT, save);
        header.putLong(base + TAIL_LAST_SCN, scn);
        header.putInt(base + TAIL_END_OFFSET, endOffset);
        SegmentFileLayout.putPosition(
                header,
                base + TAIL_POSITION_LENGTH,
                base + TAIL_POSITION,
                position.getBytes(StandardCharsets.UTF_8));
        header.putInt(
                base + RECORD_CRC, SegmentFileLayout.crc(header, base, base + RECORD_CRC, crc));
    }

    /** A segment's start record. */
    record Start(long sequence, long floorScn, String floorPosition) {}

    /** A segment's last committed entry and the source position after it. */
    record Tail(long sequence, long lastScn, int endOffset, String position) {}

    /** The start record of the segment in {@code slot}, or null if none is intact. */
    Start start(int slot) {
        ByteBuffer header = headers[slot];
        int base = START_OFFSET;
        if (header.getInt(base + RECORD_CRC)
                != SegmentFileLayout.crc(header, base, base + RECORD_CRC, crc)) {
            return null;
        }
        String position =
                SegmentFileLayout.position(
                        header, base + START_POSITION_LENGTH, base + START_POSITION);
        return position == null
                ? null
                : new Start(
                        header.getLong(base + START_SEQUENCE),
                        header.getLong(base + START_FLOOR_SCN),
                        position);
    }

    /**
     * The newest intact tail record of the segment in {@code slot} for lap {@code sequence}, or
     * null; remembers its save count, so that later records of this lap go on from it.
     */
    Tail tail(int slot, long sequence) {
        ByteBuffer header = headers[slot];
        Tail best = null;
        long bestSave = 0;
        for (int base : new int[] {TAIL_A_OFFSET, TAIL_B_OFFSET}) {
            if (header.getInt(base + RECORD_CRC)
                    != SegmentFileLayout.crc(header, base, base + RECORD_CRC, crc)) {
                continue;
            }
            long save = header.getLong(base + TAIL_SAVE_COUNT);
            String position =
                    SegmentFileLayout.position(
                            header, base + TAIL_POSITION_LENGTH, base + TAIL_POSITION);
            if (save <= bestSave
                    || position == null
                    || header.getLong(base + TAIL_SEQUENCE) != sequence) {
                continue;
            }
            bestSave = save;
            best =
                    new Tail(
                            sequence,
                            header.getLong(base + TAIL_LAST_SCN),
                            header.getInt(base + TAIL_END_OFFSET),
                            position);
        }
        tailSaves[slot] = Math.max(tailSaves[slot], bestSave);
        return best;
    }

    int segmentCount() {
        return segmentCount;
    }

    ByteBuffer segment(int slot) {
        return segments[slot];
    }

    private int slotOf(long sequence) {
        return (int) (sequence % segmentCount);
    }

    /** Forces every file to the device, releases the lock and closes the files. Idempotent. */
    @Override
    public void close() {
        for (int slot = 0; slot < segmentCount; slot++) {
            if (headers[slot] != null) {
                segments[slot].force();
                headers[slot].force();
            }
        }
        for (FileChannel channel : channels) {
            closeQuietly(channel);
        }
        channels.clear();
        closeQuietly(lockChannel); // releases the lock
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.warn("closing a buffer file failed: {}", e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "SegmentFiles[directory=" + directory + "]";
    }
}
