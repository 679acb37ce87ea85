package io.changegrid.fetchers.mysql.schema;

/**
 * One token of a SQL statement.
 *
 * @param kind what the token is
 * @param text a word or number as written, an identifier or string with quotes and escapes removed,
 *     a symbol's characters
 * @param position the offset of the token's first character in the statement
 */
record SqlToken(Kind kind, String text, int position) {

    enum Kind {
        /** An unquoted identifier or keyword. */
        WORD,
        /** A {@code `backquoted`} identifier: never a keyword. */
        QUOTED,
        /** A {@code 'string'} or {@code "string"} literal. */
        STRING,
        /** A number, or a hexadecimal or bit literal. */
        NUMBER,
        /** Punctuation or an operator. */
        SYMBOL,
        /** After the last token. */
        END
    }

    /** Whether this is the unquoted keyword {@code keyword}, ignoring case. */
    boolean isWord(String keyword) {
        return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    /** Whether this can name something: a word or a backquoted identifier. */
    boolean isIdentifier() {
        return kind == Kind.WORD || kind == Kind.QUOTED;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case END -> "end of statement";
            case QUOTED -> "`" + text + "`";
            case STRING -> "'" + text + "'";
            default -> text;
        };
    }
}
