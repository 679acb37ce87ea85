package io.changegrid.policy.conflict;

/**
 * What an applier does with an incoming change.
 *
 * @param outcome apply, skip or reject
 * @param reason why, for logs and rejection records; empty for APPLY
 */
public record Resolution(Outcome outcome, String reason) {

    /** The three outcomes. */
    public enum Outcome {
        /** Write the incoming change. */
        APPLY,
        /** Keep the target row; the incoming change is older or already applied. Not an error. */
        SKIP,
        /** Keep the target row and record the incoming change as rejected. */
        REJECT
    }

    public static final Resolution APPLY = new Resolution(Outcome.APPLY, "");

    public static Resolution skip(String reason) {
        return new Resolution(Outcome.SKIP, reason);
    }

    public static Resolution reject(String reason) {
        return new Resolution(Outcome.REJECT, reason);
    }
}
