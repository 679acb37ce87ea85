package io.changegrid.bench.harness;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Bytes this machine has read from its disks, from {@code /sys/block/<disk>/stat}: taken before and
 * after a run, the difference says whether a reader of the binlog was served from the page cache or
 * waited for the disk. A binlog larger than the memory left for the page cache is read from disk on
 * every pass, and then every reader's rate is the disk's, not its own (seen at 4.8M rows here,
 * 2026-11-27: relay runs read 3.3–3.8 GB of a 13.5 GB binlog from disk).
 *
 * <p>Counts whole disks only: not partitions (their reads are in their disk's), not loop, RAM or
 * compressed-RAM devices, nor device-mapper volumes (whose reads are in the disks beneath them).
 */
public final class DiskReads {

    private static final Path BLOCK = Path.of("/sys/block");

    /** The unit of the stat file's sector counts, whatever the disk's own sector size. */
    private static final long SECTOR = 512;

    private DiskReads() {}

    /** Bytes read from disks since boot; empty where {@code /sys/block} cannot be read. */
    public static OptionalLong bytes() {
        if (!Files.isDirectory(BLOCK)) {
            return OptionalLong.empty();
        }
        long sectors = 0;
        try (DirectoryStream<Path> disks = Files.newDirectoryStream(BLOCK)) {
            for (Path disk : disks) {
                String name = disk.getFileName().toString();
                if (name.startsWith("loop")
                        || name.startsWith("ram")
                        || name.startsWith("zram")
                        || name.startsWith("dm-")) {
                    continue;
                }
                Path stat = disk.resolve("stat");
                if (Files.isReadable(stat)) {
                    sectors += sectorsRead(Files.readString(stat));
                }
            }
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(sectors * SECTOR);
    }

    /** The third field of a block device's stat line: sectors read. */
    static long sectorsRead(String stat) {
        String[] fields = stat.trim().split("\\s+");
        if (fields.length < 3) {
            throw new IllegalArgumentException("not a block device stat line: line=" + stat);
        }
        return Long.parseLong(fields[2]);
    }

    /** The megabytes read between two readings, or -1 when either is missing. */
    public static double megabytesBetween(OptionalLong before, OptionalLong after) {
        if (before.isEmpty() || after.isEmpty()) {
            return -1;
        }
        return (after.getAsLong() - before.getAsLong()) / 1e6;
    }
}
