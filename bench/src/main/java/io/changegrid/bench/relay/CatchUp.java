package io.changegrid.bench.relay;

/**
 * What a set of relays did reading a binlog range, measured from outside: from the first relay's
 * first publish to the last relay reaching the end of the range.
 *
 * @param events row events published, all relays together
 * @param bytes frame bytes published
 * @param firstNanos {@link System#nanoTime()} when the first relay had published (CLOCK_MONOTONIC
 *     on Linux, comparable with the consumers' times)
 * @param doneNanos when the last relay had read the whole range
 * @param cpuSeconds CPU the relays used within their own windows, together
 * @param jitCpuSeconds the part of {@code cpuSeconds} the relays' JIT compiler threads used (-1:
 *     unknown); a relay starts cold, and in a short window compiling is a large part of its CPU
 * @param heapMax the most heap any one relay used
 * @param lastScn the highest SCN published, for consumers to know the end
 * @param machineCores cores the whole machine kept busy in the window (-1: unknown)
 * @param harnessCores cores the harness process kept busy in the window
 * @param startSkewNanos from the first relay's first publish to the last relay's: relay JVMs start
 *     together but their start-ups stagger on shared cores, and the window includes that
 * @param secondHalf the second half of the window's transactions alone: from when the relays had
 *     appended half of them to the end. Fresh relay JVMs spend the first seconds compiling their
 *     hot paths on the cores they read with; a relay runs for months, so the second half is closer
 *     to what it does once warm.
 */
public record CatchUp(
        long events,
        long bytes,
        long firstNanos,
        long doneNanos,
        double cpuSeconds,
        double jitCpuSeconds,
        long heapMax,
        long lastScn,
        double machineCores,
        double harnessCores,
        long startSkewNanos,
        SecondHalf secondHalf) {

    /**
     * The second half of a window.
     *
     * @param events row events published in it (the window's events in proportion to its
     *     transactions; the load's transactions are all the same size)
     * @param nanos its length
     * @param cpuSeconds CPU the relays used in it
     */
    public record SecondHalf(long events, long nanos, double cpuSeconds) {

        public double eventsPerSec() {
            return events / (nanos / 1e9);
        }

        public double cores() {
            return cpuSeconds / (nanos / 1e9);
        }
    }

    public double seconds() {
        return (doneNanos - firstNanos) / 1e9;
    }

    /** Cores the relays kept busy on average. */
    public double cores() {
        return cpuSeconds / seconds();
    }
}
