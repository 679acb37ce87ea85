package io.changegrid.bench.harness;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/**
 * CPU a JVM's JIT compiler threads have used, from {@code /proc/<pid>/task/<tid>/stat}: taken at
 * the start and end of a measured window, the difference is the part of the window's CPU that went
 * to compiling rather than to the work. A relay starts cold in every run; on a machine where it
 * reads 600k events a second a 1.2M run lasts two seconds, and its compiler threads used 1.1–1.2 s
 * of the relay's 3.0–3.1 s of CPU in the window (2026-11-27).
 *
 * <p>HotSpot names the threads {@code C1 CompilerThread<n>} and {@code C2 CompilerThread<n>}, which
 * Linux shortens to 15 characters. A compiler thread that HotSpot retires when idle takes its CPU
 * with it, so on a machine with more compiler threads than it keeps the figure is a lower bound (on
 * 2 cores HotSpot runs one of each, which it never retires).
 */
public final class JitCpu {

    /** Linux's clock ticks per second, the unit of a stat line's CPU times (USER_HZ). */
    private static final double TICKS_PER_SECOND = 100;

    private JitCpu() {}

    /** The compiler threads' CPU seconds of process {@code pid}; empty where /proc says nothing. */
    public static OptionalDouble seconds(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        if (!Files.isDirectory(tasks)) {
            return OptionalDouble.empty();
        }
        long ticks = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                try {
                    ticks += compilerTicks(Files.readString(thread.resolve("stat")));
                } catch (IOException e) {
                    // The thread ended between the listing and the read: its CPU went with it.
                }
            }
        } catch (IOException | RuntimeException e) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(ticks / TICKS_PER_SECOND);
    }

    /**
     * The user and system ticks (fields 14 and 15) of a thread's stat line if the thread is a JIT
     * compiler thread, else 0. The name, field 2, is in parentheses and may hold spaces, so the
     * fields are counted from its closing parenthesis.
     */
    static long compilerTicks(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc stat line: line=" + stat);
        }
        String name = stat.substring(open + 1, close);
        if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
            return 0;
        }
        // After the name: state (field 3) ... utime (14), stime (15).
        String[] fields = stat.substring(close + 1).trim().split("\\s+");
        if (fields.length < 13) {
            throw new IllegalArgumentException("not a /proc stat line: line=" + stat);
        }
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
