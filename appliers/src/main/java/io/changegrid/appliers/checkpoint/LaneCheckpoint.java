package io.changegrid.appliers.checkpoint;

/**
 * What one lane has put into the target: every change routed to it from transactions at or below
 * {@code scn}, and, when a barrier committed a source transaction part-way, the changes routed to
 * it from transaction {@code partialScn} at event indexes up to {@code partialIndex}.
 *
 * <p>The partial part is what makes a barrier in the middle of a transaction safe: the lane skips
 * exactly the events it committed when the transaction is delivered again, while another lane that
 * committed a later change of the same row skips that one. Without it the lane would replay its
 * earlier change over the later one (see {@code docs/appliers.md}, "Exactly once").
 *
 * @param scn every transaction at or below it is in the target for this lane; -1 for none
 * @param partialScn a transaction after {@code scn} the lane holds part of, or -1
 * @param partialIndex the highest event index of {@code partialScn} the lane holds, or -1
 */
public record LaneCheckpoint(long scn, long partialScn, int partialIndex) {

    /** A lane that has applied nothing yet. */
    public static final LaneCheckpoint NONE = after(-1);

    /** Every transaction at or below {@code scn}, nothing after it. */
    public static LaneCheckpoint after(long scn) {
        return new LaneCheckpoint(scn, -1, -1);
    }

    /**
     * Every transaction at or below {@code scn}, and the events of transaction {@code partialScn}
     * at indexes up to {@code partialIndex}.
     */
    public static LaneCheckpoint within(long scn, long partialScn, int partialIndex) {
        return partialScn <= scn || partialIndex < 0
                ? after(scn)
                : new LaneCheckpoint(scn, partialScn, partialIndex);
    }

    /** Whether the lane holds part of a transaction after {@link #scn}. */
    public boolean partial() {
        return partialScn > scn && partialIndex >= 0;
    }

    /** Whether the change at event {@code index} of transaction {@code transactionScn} is in. */
    public boolean covers(long transactionScn, int index) {
        return transactionScn <= scn
                || (partial() && transactionScn == partialScn && index <= partialIndex);
    }

    /** The later of the two: a lane's checkpoint never moves backwards. */
    public LaneCheckpoint max(LaneCheckpoint other) {
        long complete = Math.max(scn, other.scn);
        LaneCheckpoint further = reachesBeyond(other) ? this : other;
        return further.partial()
                ? within(complete, further.partialScn, further.partialIndex)
                : after(complete);
    }

    private boolean reachesBeyond(LaneCheckpoint other) {
        long mine = partial() ? partialScn : scn;
        long theirs = other.partial() ? other.partialScn : other.scn;
        if (mine != theirs) {
            return mine > theirs;
        }
        int myIndex = partial() ? partialIndex : Integer.MAX_VALUE;
        int theirIndex = other.partial() ? other.partialIndex : Integer.MAX_VALUE;
        return myIndex >= theirIndex;
    }

    @Override
    public String toString() {
        return partial() ? scn + "+" + partialScn + "#" + partialIndex : Long.toString(scn);
    }
}
