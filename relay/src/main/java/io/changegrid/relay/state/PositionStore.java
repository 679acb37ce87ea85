package io.changegrid.relay.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Where a restarted relay starts reading again, kept on disk in a memory-mapped file so that it can
 * be updated after every published transaction for a few nanoseconds.
 *
 * <p>It records the <em>replay point</em>: the source position just before the oldest transaction
 * still in the event buffer, and the SCN just before it. A restarted relay re-reads from there, so
 * its new buffer holds everything the old one held, with the same SCNs: a consumer that lagged
 * behind at the moment of a crash still finds every transaction, none twice.
 *
 * <p>Layout: two slots of {@value #SLOT_BYTES} bytes; each save writes the slot the previous save
 * did not, ending with a CRC32C over the slot. A write torn by {@code kill -9} (or a power cut)
 * fails its CRC, and the other slot, one save older, is used.
 *
 * <pre>
 * slot: sequence (8) | last published SCN (8) | replay floor SCN (8) | position length (2) |
 *       position (UTF-8, up to 480) | ... | CRC32C of bytes [0, 508) (4)
 * </pre>
 *
 * <p>A file whose slots both fail their CRC is not taken for a relay that never published: {@link
 * #load()} refuses it ({@link CorruptPositionFileException}), since starting afresh would begin a
 * new schema history at {@code source.start} and drop the one the buffer's SCNs were decoded with.
 *
 * <p>A {@code kill -9} loses nothing written: the page cache survives the process. {@link #sync()}
 * forces the file to the device for the case where the machine itself stops.
 *
 * <p>Threading: written by the publisher thread only; loaded at start.
 */
public final class PositionStore implements AutoCloseable {

    /** A saved replay point. */
    public record SavedPosition(long lastScn, long replayFloorScn, String replayPosition) {}

    static final int SLOT_BYTES = 512;
    private static final int CRC_OFFSET = SLOT_BYTES - 4;
    private static final int POSITION_OFFSET = 26;
    private static final int MAX_POSITION_BYTES = CRC_OFFSET - POSITION_OFFSET;

    private final Path file;
    private final FileChannel channel;
    private final MappedByteBuffer slots;
    private final CRC32C crc = new CRC32C();
    private long sequence;

    /** Opens (or creates) the store in {@code directory}. */
    public PositionStore(Path directory) {
        this.file = directory.resolve("position");
        try {
            Files.createDirectories(directory);
            channel =
                    FileChannel.open(
                            file,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.READ,
                            StandardOpenOption.WRITE);
            slots = channel.map(FileChannel.MapMode.READ_WRITE, 0, 2L * SLOT_BYTES);
            slots.order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new UncheckedIOException("position file could not be opened: file=" + file, e);
        }
        sequence = Math.max(sequenceOf(0), sequenceOf(1));
    }

    /**
     * The latest intact replay point, or empty when the relay never published (both slots blank).
     *
     * @throws CorruptPositionFileException if something was saved but neither slot is intact
     */
    public Optional<SavedPosition> load() {
        int best = -1;
        for (int slot = 0; slot < 2; slot++) {
            if (intact(slot) && (best < 0 || sequenceOf(slot) > sequenceOf(best))) {
                best = slot;
            }
        }
        if (best < 0) {
            if (blank(0) && blank(1)) {
                return Optional.empty();
            }
            throw new CorruptPositionFileException(file);
        }
        int base = best * SLOT_BYTES;
        byte[] position = new byte[slots.getShort(base + 24)];
        slots.get(base + POSITION_OFFSET, position);
        return Optional.of(
                new SavedPosition(
                        slots.getLong(base + 8),
                        slots.getLong(base + 16),
                        new String(position, StandardCharsets.UTF_8)));
    }

    /**
     * Records a replay point. Cheap enough to call after every published transaction.
     *
     * @param lastScn the SCN last published (for operators)
     * @param replayFloorScn the SCN just before the replay position
     * @param replayPosition the source position a restart reads from
     */
    public void save(long lastScn, long replayFloorScn, String replayPosition) {
        byte[] position = replayPosition.getBytes(StandardCharsets.UTF_8);
        if (position.length > MAX_POSITION_BYTES) {
            throw new IllegalArgumentException(
                    "source position too long to store: bytes="
                            + position.length
                            + ", max="
                            + MAX_POSITION_BYTES);
        }
        sequence++;
        int base = (int) (sequence & 1) * SLOT_BYTES;
        slots.putLong(base, sequence);
        slots.putLong(base + 8, lastScn);
        slots.putLong(base + 16, replayFloorScn);
        slots.putShort(base + 24, (short) position.length);
        slots.put(base + POSITION_OFFSET, position);
        slots.putInt(base + CRC_OFFSET, checksum(base));
    }

    /** Forces what was saved to the storage device. */
    public void sync() {
        slots.force();
    }

    @Override
    public void close() {
        try {
            sync();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("position file could not be closed: file=" + file, e);
        }
    }

    private boolean intact(int slot) {
        int base = slot * SLOT_BYTES;
        int length = slots.getShort(base + 24);
        return sequenceOf(slot) > 0
                && length >= 0
                && length <= MAX_POSITION_BYTES
                && slots.getInt(base + CRC_OFFSET) == checksum(base);
    }

    /** All zeros: never written (a new file is extended with zeros when it is mapped). */
    private boolean blank(int slot) {
        for (int i = slot * SLOT_BYTES; i < (slot + 1) * SLOT_BYTES; i++) {
            if (slots.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private long sequenceOf(int slot) {
        return slots.getLong(slot * SLOT_BYTES);
    }

    private int checksum(int base) {
        crc.reset();
        crc.update(slots.duplicate().position(base).limit(base + CRC_OFFSET));
        return (int) crc.getValue();
    }
}
