package io.changegrid.console.sample;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One chart's points, oldest first, kept for the history window only.
 *
 * <p>Threading: not thread-safe; the sampler's thread adds, and hands out {@link #points} copies.
 */
final class Series {

    private final long windowMillis;
    private final ArrayDeque<double[]> points = new ArrayDeque<>();

    Series(long windowMillis) {
        this.windowMillis = windowMillis;
    }

    void add(long atMillis, double value) {
        points.addLast(new double[] {atMillis, value});
        while (!points.isEmpty() && points.peekFirst()[0] < atMillis - windowMillis) {
            points.removeFirst();
        }
    }

    /** {@code [millis, value]} pairs, oldest first. */
    List<double[]> points() {
        return new ArrayList<>(points);
    }
}
