package io.changegrid.policy.select;

/**
 * A {@code where:} text that does not parse. The message names what was expected, the offset in the
 * text (0-based, in UTF-16 chars) and the whole text.
 */
public final class PredicateSyntaxException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final int offset;

    PredicateSyntaxException(String what, int offset, String text) {
        super(what + " at offset " + offset + ": text=" + text);
        this.offset = offset;
    }

    /** Where in the text the problem is. */
    public int offset() {
        return offset;
    }
}
