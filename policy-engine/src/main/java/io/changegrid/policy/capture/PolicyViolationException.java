package io.changegrid.policy.capture;

/**
 * The source changed a table so that its policy can no longer be applied safely (a predicate's
 * column is gone, a protected column was renamed): capture must stop rather than publish rows the
 * policy did not vet. The message names the policy, the table and the column.
 */
public final class PolicyViolationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PolicyViolationException(String message) {
        super(message);
    }
}
