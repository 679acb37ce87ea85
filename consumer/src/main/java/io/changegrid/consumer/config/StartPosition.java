package io.changegrid.consumer.config;

/**
 * Where a consumer without a checkpoint starts ({@code start}); one with a checkpoint always
 * continues after it.
 */
public enum StartPosition {
    /** At the oldest transaction a relay holds: the live stream only, no existing rows. */
    OLDEST,
    /**
     * With a snapshot at the relay's newest SCN (docs/bootstrap.md): the rows that exist, then the
     * live stream.
     */
    SNAPSHOT
}
