package io.changegrid.policy.conflict;

import java.util.List;

/**
 * The conflict strategies a policy can name, and the resolver each makes. A policy holds the
 * strategy and its parameters; the applier supplies the runtime parts (the rejection listener).
 */
public enum ConflictStrategy {
    LAST_WRITER_WINS_BY_COMMIT_TIME,
    LAST_WRITER_WINS_BY_SCN,
    SOURCE_PRIORITY,
    REJECT_AND_RECORD;

    /**
     * The resolver of this strategy.
     *
     * @param sourcePriority for SOURCE_PRIORITY, the source ids highest first; else ignored
     * @param listener for REJECT_AND_RECORD, told about each rejection; else ignored
     */
    public ConflictResolver resolver(List<Integer> sourcePriority, RejectionListener listener) {
        switch (this) {
            case LAST_WRITER_WINS_BY_COMMIT_TIME:
                return new ConflictResolver.LastWriterWinsByCommitTime();
            case LAST_WRITER_WINS_BY_SCN:
                return new ConflictResolver.LastWriterWinsByScn();
            case SOURCE_PRIORITY:
                return new ConflictResolver.SourcePriority(sourcePriority);
            default:
                return new ConflictResolver.RejectAndRecord(listener);
        }
    }
}
