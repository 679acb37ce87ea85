package io.changegrid.console.sample;

/**
 * A per-second rate from successive readings of a monotonic counter; a counter that went down (the
 * component restarted) starts over instead of showing a negative rate.
 *
 * <p>Threading: not thread-safe; the sampler's thread only.
 */
final class CounterRate {

    private long lastMillis = -1;
    private double lastValue;

    /** The rate since the previous reading; NaN for the first one or after a restart. */
    double next(long atMillis, double value) {
        double rate = Double.NaN;
        if (lastMillis >= 0 && value >= lastValue && atMillis > lastMillis) {
            rate = (value - lastValue) * 1000.0 / (atMillis - lastMillis);
        }
        lastMillis = atMillis;
        lastValue = value;
        return rate;
    }
}
