package io.changegrid.policy.conflict;

/**
 * Told about every change a {@link ConflictResolver} rejects. Called on the applier's thread, once
 * per rejected change, before the resolution is returned.
 */
@FunctionalInterface
public interface RejectionListener {
    void onRejected(RowVersion incoming, RowVersion current, String reason);
}
