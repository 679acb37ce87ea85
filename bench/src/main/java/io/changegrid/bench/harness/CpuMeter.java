package io.changegrid.bench.harness;

import io.changegrid.gridkit.process.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU over a measured window for what the measured processes do not account for: the whole machine
 * (from {@code /proc/stat}: every process and the kernel) and this harness process. If the machine
 * was busier than the measured processes, something else shared the cores.
 *
 * <p>Not thread-safe: one harness thread starts and reads it.
 */
public final class CpuMeter {

    private static final Path STAT = Path.of("/proc/stat");

    private long busyTicks;
    private long totalTicks;
    private double harnessSeconds;
    private long startNanos;

    /** Starts (or restarts) the window now. */
    public CpuMeter start() {
        long[] ticks = ticks();
        busyTicks = ticks[0];
        totalTicks = ticks[1];
        harnessSeconds = JavaProcess.cpuSeconds(ProcessHandle.current());
        startNanos = System.nanoTime();
        return this;
    }

    /** Whether the window was started. */
    public boolean started() {
        return startNanos != 0;
    }

    /**
     * Cores the whole machine kept busy since {@link #start()}, or -1 where there is no {@code
     * /proc/stat}.
     */
    public double machineCores() {
        long[] ticks = ticks();
        if (ticks[1] <= totalTicks) {
            return -1;
        }
        return (double) (ticks[0] - busyTicks) / (ticks[1] - totalTicks) * Machine.cores();
    }

    /** Cores this harness process kept busy since {@link #start()}. */
    public double harnessCores() {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return (JavaProcess.cpuSeconds(ProcessHandle.current()) - harnessSeconds) / seconds;
    }

    /** {busy, total} jiffies of all CPUs; zeros where there is no {@code /proc/stat}. */
    private static long[] ticks() {
        try {
            String[] fields = Files.readAllLines(STAT).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < fields.length && i <= 8; i++) {
                total += Long.parseLong(fields[i]);
            }
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0}; // not Linux: the figures say -1
        }
    }
}
