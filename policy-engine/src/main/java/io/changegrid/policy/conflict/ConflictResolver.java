package io.changegrid.policy.conflict;

import java.util.List;
import java.util.Objects;

/**
 * Decides between an incoming change and the version of the row the target holds. With no current
 * row there is no conflict and every resolver applies. Replaying a change already applied (same
 * source and SCN) is skipped by every resolver, so redelivery is idempotent. Immutable and
 * thread-safe (the rejecting resolver calls its listener on the caller's thread).
 */
public sealed interface ConflictResolver {

    /**
     * @param incoming the version the incoming change would write
     * @param current the version the target holds, or {@code null} if it has no such row
     */
    Resolution resolve(RowVersion incoming, RowVersion current);

    /** The newer commit time wins; ties go to the lower source id, then the higher SCN. */
    record LastWriterWinsByCommitTime() implements ConflictResolver {
        @Override
        public Resolution resolve(RowVersion incoming, RowVersion current) {
            if (current == null) {
                return Resolution.APPLY;
            }
            int order = Long.compare(incoming.commitTimeMicros(), current.commitTimeMicros());
            if (order == 0) {
                // A total order so that every replica settles on the same row.
                order = Integer.compare(current.sourceId(), incoming.sourceId());
            }
            if (order == 0) {
                order = Long.compare(incoming.scn(), current.scn());
            }
            return order > 0
                    ? Resolution.APPLY
                    : Resolution.skip(
                            "not newer by commit time: incoming="
                                    + incoming
                                    + ", current="
                                    + current);
        }
    }

    /**
     * The higher SCN wins. SCNs order one source's timeline only, so use this when every row has
     * one writing source.
     */
    record LastWriterWinsByScn() implements ConflictResolver {
        @Override
        public Resolution resolve(RowVersion incoming, RowVersion current) {
            if (current == null || incoming.scn() > current.scn()) {
                return Resolution.APPLY;
            }
            return Resolution.skip(
                    "not newer by SCN: incoming=" + incoming + ", current=" + current);
        }
    }

    /**
     * The source listed earlier wins; unlisted sources rank after all listed ones. Between changes
     * of equally ranked sources, the newer commit time wins as in {@link
     * LastWriterWinsByCommitTime}.
     *
     * @param sourceIds source ids, highest priority first
     */
    record SourcePriority(List<Integer> sourceIds) implements ConflictResolver {
        public SourcePriority {
            sourceIds = List.copyOf(sourceIds);
        }

        @Override
        public Resolution resolve(RowVersion incoming, RowVersion current) {
            if (current == null) {
                return Resolution.APPLY;
            }
            int order = Integer.compare(rank(current.sourceId()), rank(incoming.sourceId()));
            if (order == 0) {
                return new LastWriterWinsByCommitTime().resolve(incoming, current);
            }
            return order > 0
                    ? Resolution.APPLY
                    : Resolution.skip(
                            "lower source priority: incoming=" + incoming + ", current=" + current);
        }

        private int rank(int sourceId) {
            int rank = sourceIds.indexOf(sourceId);
            return rank < 0 ? sourceIds.size() : rank;
        }
    }

    /**
     * Any existing row is a conflict: the target keeps it and the incoming change is rejected and
     * handed to the listener — except an exact replay of the change that wrote it, which is
     * skipped.
     */
    record RejectAndRecord(RejectionListener listener) implements ConflictResolver {
        public RejectAndRecord {
            Objects.requireNonNull(listener, "listener");
        }

        @Override
        public Resolution resolve(RowVersion incoming, RowVersion current) {
            if (current == null) {
                return Resolution.APPLY;
            }
            if (incoming.equals(current)) {
                return Resolution.skip("already applied: incoming=" + incoming);
            }
            String reason = "row exists: incoming=" + incoming + ", current=" + current;
            listener.onRejected(incoming, current, reason);
            return Resolution.reject(reason);
        }
    }
}
