package io.changegrid.protocol.security;

/**
 * The outcome of recognizing a request: a principal, or why there is none.
 *
 * @param principal who sent the request; null when refused
 * @param refusal why it is refused (for a 401 body: never a token); null when recognized
 */
public record Authentication(Principal principal, String refusal) {

    /** A recognized principal. */
    public static Authentication of(Principal principal) {
        return new Authentication(principal, null);
    }

    /** A refusal, saying why. */
    public static Authentication refused(String refusal) {
        return new Authentication(null, refusal);
    }
}
