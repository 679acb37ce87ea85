package io.changegrid.policy.select;

/**
 * One token of a {@code where:} text.
 *
 * @param kind what it is
 * @param text the identifier, number, operator, or the unescaped content of a string
 * @param offset where it starts in the text
 */
record Token(Kind kind, String text, int offset) {

    enum Kind {
        IDENTIFIER,
        NUMBER,
        STRING,
        OPERATOR,
        LEFT_PAREN,
        RIGHT_PAREN,
        COMMA,
        DOT,
        MINUS,
        END
    }

    /** True for an identifier equal, ignoring case, to the keyword. */
    boolean isKeyword(String keyword) {
        return kind == Kind.IDENTIFIER && text.equalsIgnoreCase(keyword);
    }

    /** How the token reads in an error message. */
    String describe() {
        return kind == Kind.END
                ? "end of text"
                : "\"" + (kind == Kind.STRING ? "'" + text + "'" : text) + "\"";
    }
}
