package io.changegrid.policy.select;

import java.util.regex.Pattern;

/**
 * Translates a SQL LIKE pattern into a regular expression: {@code %} is any run of characters,
 * {@code _} exactly one character (one code point), and the escape character makes the next
 * character literal. Stateless.
 */
final class LikePattern {

    private LikePattern() {}

    static Pattern compile(String like, char escape) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == escape && i + 1 < like.length()) {
                literal.append(like.charAt(++i));
            } else if (c == '%' || c == '_') {
                flush(regex, literal);
                regex.append(c == '%' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        flush(regex, literal);
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private static void flush(StringBuilder regex, StringBuilder literal) {
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
            literal.setLength(0);
        }
    }
}
