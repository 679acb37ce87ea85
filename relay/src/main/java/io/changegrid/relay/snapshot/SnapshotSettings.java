package io.changegrid.relay.snapshot;

import java.time.Duration;

/**
 * A relay's snapshot settings ({@code snapshot.*}, defined in {@code RelaySettings}).
 *
 * @param chunkSize rows per chunk read
 * @param minChunkInterval the least time between two chunk reads of this relay (a throttle)
 * @param watermarkWait how long a chunk waits for the fetcher to pass its high watermark before it
 *     is discarded
 * @param maxRequests snapshot requests served at once
 */
public record SnapshotSettings(
        int chunkSize, Duration minChunkInterval, Duration watermarkWait, int maxRequests) {

    public SnapshotSettings {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("snapshot chunk size must be >= 1: " + chunkSize);
        }
        if (maxRequests < 1) {
            throw new IllegalArgumentException(
                    "snapshot requests at once must be >= 1: " + maxRequests);
        }
    }

    /** The defaults: 1024 rows, no throttle, 10 s, 4 requests at once. */
    public static SnapshotSettings defaults() {
        return new SnapshotSettings(1024, Duration.ZERO, Duration.ofSeconds(10), 4);
    }
}
