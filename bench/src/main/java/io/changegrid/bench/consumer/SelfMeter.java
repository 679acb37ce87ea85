package io.changegrid.bench.consumer;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * What a measuring consumer reports about itself: the times of its first and last event, its
 * process CPU between them, and the most heap it used.
 *
 * <p>Threading: {@link #event()} and {@link #transactionEnd()} on the thread that delivers; the
 * rest from any thread.
 */
final class SelfMeter {

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private volatile long firstNanos;
    private volatile long firstCpuNanos;
    private volatile long lastNanos;
    private volatile long events;
    private volatile long bytes;
    private volatile long finishCpuNanos;
    private long eventCount;
    private long byteCount;

    /** One event of {@code length} frame bytes delivered. */
    void event(int length) {
        if (eventCount++ == 0) {
            firstCpuNanos = os.getProcessCpuTime();
            firstNanos = System.nanoTime();
        }
        byteCount += length;
    }

    /** A transaction's events are all delivered: publishes the counts and the time. */
    void transactionEnd() {
        lastNanos = System.nanoTime();
        bytes = byteCount;
        events = eventCount;
    }

    long events() {
        return events;
    }

    /** The run is over: takes the CPU time now, before the consumer shuts down. */
    void finish() {
        finishCpuNanos = os.getProcessCpuTime();
    }

    /** The result line, after {@link #finish()}. */
    String result() {
        double cpu = events == 0 ? 0 : (finishCpuNanos - firstCpuNanos) / 1e9;
        long heap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heap += pool.getPeakUsage().getUsed();
            }
        }
        return String.format(
                java.util.Locale.ROOT,
                "{\"result\":true,\"events\":%d,\"bytes\":%d,\"firstNanos\":%d,\"lastNanos\":%d,"
                        + "\"cpuSeconds\":%.3f,\"heapMax\":%d}",
                events,
                bytes,
                firstNanos,
                lastNanos,
                cpu,
                heap);
    }
}
