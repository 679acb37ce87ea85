package io.changegrid.policy.conflict;

import io.changegrid.events.ChangeEvent;

/**
 * Where a row version came from: the change that wrote it.
 *
 * @param sourceId the source that wrote it
 * @param scn the writing transaction's SCN on that source
 * @param commitTimeMicros the source commit time, microseconds since the epoch
 */
public record RowVersion(int sourceId, long scn, long commitTimeMicros) {

    /** The version an event would write. */
    public static RowVersion of(ChangeEvent event) {
        return new RowVersion(event.sourceId(), event.scn(), event.commitTimeMicros());
    }
}
