package io.changegrid.bench.stage1;

import java.io.PrintStream;

/** One line of progress on stderr, rewritten at most twice a second: done, rate and ETA. */
final class ProgressLine {

    private final PrintStream out;
    private final String what;
    private final long total;
    private final long startNanos = System.nanoTime();
    private long lastPrintNanos;

    ProgressLine(PrintStream out, String what, long total) {
        this.out = out;
        this.what = what;
        this.total = total;
    }

    void report(long done) {
        long now = System.nanoTime();
        if (now - lastPrintNanos < 500_000_000L && done < total) {
            return;
        }
        lastPrintNanos = now;
        double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
        double rate = done / seconds;
        long eta = rate > 0 ? Math.round((total - done) / rate) : -1;
        out.printf(
                "\r%-8s %,12d / %,d  %,10.0f /s  ETA %4ds   ",
                what, done, total, rate, Math.max(0, eta));
        if (done >= total) {
            out.println();
        }
        out.flush();
    }

    double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
