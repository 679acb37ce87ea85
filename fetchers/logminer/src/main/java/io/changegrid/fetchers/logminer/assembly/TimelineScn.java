package io.changegrid.fetchers.logminer.assembly;

/**
 * The SCN a transaction takes on the relay's timeline. Oracle's commit SCN is not unique: several
 * transactions may commit at one SCN. So the timeline SCN is the commit SCN in the high bits and an
 * ordinal in the low 16, the transaction's rank among all commits at that SCN ordered by ({@code
 * THREAD#}, {@code RS_ID}, {@code SSN}) - facts of the redo, the same for every relay whatever it
 * captures, hence identical on every relay and strictly increasing.
 *
 * <pre>
 *  63 62                                        16 15            0
 * +--+-------------------------------------------+----------------+
 * |0 |            commit SCN (47 bits)           |    ordinal     |
 * +--+-------------------------------------------+----------------+
 * </pre>
 *
 * Ordinal {@code 0xFFFF} is never a commit's: a heartbeat after SCN {@code s} sits at {@code of(s,
 * 0xFFFF)}, above every commit at {@code s} and below every later one. Oracle's SCN is 48 bits wide
 * (2^48 - 1 at most); a 47-bit SCN lasts 140 trillion, the sign bit stays clear, and an SCN beyond
 * is refused, never wrapped. What must never change: the layout, and the ordering key.
 */
public final class TimelineScn {

    static final int ORDINAL_BITS = 16;
    static final int HEARTBEAT_ORDINAL = 0xFFFF;
    static final long MAX_SOURCE_SCN = (1L << (63 - ORDINAL_BITS)) - 1;

    private TimelineScn() {}

    /** The timeline SCN of a commit at {@code sourceScn} with rank {@code ordinal} there. */
    public static long of(long sourceScn, int ordinal) {
        if (ordinal == HEARTBEAT_ORDINAL) {
            throw new IllegalArgumentException(
                    "more commits at one SCN than the timeline orders: scn="
                            + sourceScn
                            + ", ordinal="
                            + ordinal);
        }
        return encode(sourceScn, ordinal);
    }

    private static long encode(long sourceScn, int ordinal) {
        if (sourceScn < 0 || sourceScn > MAX_SOURCE_SCN) {
            throw new IllegalArgumentException(
                    "SCN outside what the timeline carries: scn="
                            + sourceScn
                            + ", max="
                            + MAX_SOURCE_SCN);
        }
        if (ordinal < 0 || ordinal > HEARTBEAT_ORDINAL) {
            throw new IllegalArgumentException(
                    "more commits at one SCN than the timeline orders: scn="
                            + sourceScn
                            + ", ordinal="
                            + ordinal);
        }
        return (sourceScn << ORDINAL_BITS) | ordinal;
    }

    /** The timeline SCN of a heartbeat once every commit up to {@code sourceScn} is published. */
    public static long heartbeat(long sourceScn) {
        return encode(sourceScn, HEARTBEAT_ORDINAL);
    }

    /** The Oracle SCN a timeline SCN was made of. */
    public static long sourceScn(long timelineScn) {
        return timelineScn >>> ORDINAL_BITS;
    }

    /** The ordinal of a timeline SCN. */
    public static int ordinal(long timelineScn) {
        return (int) (timelineScn & HEARTBEAT_ORDINAL);
    }
}
