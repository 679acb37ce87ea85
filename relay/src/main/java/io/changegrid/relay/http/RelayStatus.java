package io.changegrid.relay.http;

/**
 * A snapshot of what a relay is doing, for {@code /v1/status} and the CLI.
 *
 * @param timeline the identity of the timeline the relay's SCNs are on (docs/event-format.md, "The
 *     timeline"), as every stream response names it; empty when the fetcher names none
 * @param fetchState RUNNING, CATCHING_UP (not yet read up to the source's end since the start),
 *     STOPPED or FAILED
 * @param fetchError why it failed, or null
 * @param fetchPosition the source position after the last transaction read completely
 * @param lagMillis how far the relay is behind its source, on {@code lagClock}, or -1
 * @param lagClock the clock of {@code lagMillis}: commit-micros, receive-time or commit-seconds;
 *     null before the first entry
 * @param receivedMillis when the relay received its newest entry (its own clock), or -1
 * @param lagScn how far the source's log is ahead of the fetch position, in SCN units, or -1
 * @param snapshotReadsPaused whether snapshot chunk reads are paused ({@code POST
 *     /v1/snapshot/pause})
 */
public record RelayStatus(
        int sourceId,
        String sourceAddress,
        String timeline,
        String fetchState,
        String fetchError,
        String fetchPosition,
        long lastPublishedScn,
        long lagMillis,
        String lagClock,
        long receivedMillis,
        long lagScn,
        long oldestScn,
        long newestScn,
        long highestEvictedScn,
        long bytesUsed,
        long capacity,
        long transactionsAppended,
        long transactionsEvicted,
        boolean snapshotReadsPaused) {}
