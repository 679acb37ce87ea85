package io.changegrid.bench.harness;

import java.io.PrintStream;
import java.util.Locale;

/**
 * One line of progress on stderr, rewritten at most twice a second: done of total, the current rate
 * (over the last interval) and the ETA at that rate.
 *
 * <p>Threading: one thread reports.
 */
public final class ProgressLine {

    private static final long INTERVAL_NANOS = 500_000_000L;

    private final PrintStream out;
    private final String what;
    private final long total;
    private final long startNanos = System.nanoTime();
    private long lastNanos = startNanos;
    private long lastDone;
    private boolean finished;

    public ProgressLine(PrintStream out, String what, long total) {
        this.out = out;
        this.what = what;
        this.total = total;
    }

    /** Shows {@code done} if the last line is old enough, or when done reaches the total. */
    public void report(long done) {
        long now = System.nanoTime();
        boolean complete = done >= total;
        if (finished || (now - lastNanos < INTERVAL_NANOS && !complete)) {
            return;
        }
        double interval = Math.max(1e-9, (now - lastNanos) / 1e9);
        double rate =
                complete
                        ? done / Math.max(1e-9, (now - startNanos) / 1e9)
                        : (done - lastDone) / interval;
        long eta = rate > 0 ? Math.round((total - done) / rate) : -1;
        lastNanos = now;
        lastDone = done;
        out.printf(
                Locale.ROOT,
                "\r%-10s %,13d / %,d  %,10.0f /s  ETA %s   ",
                what,
                done,
                total,
                rate,
                eta < 0 ? "?" : eta + "s");
        if (complete) {
            out.println();
            finished = true;
        }
        out.flush();
    }

    /** Ends the line early (the run stopped before the total). */
    public void end() {
        if (!finished) {
            out.println();
            finished = true;
        }
    }

    /** Seconds since this line was created. */
    public double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
