package io.changegrid.policy.select;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a {@code where:} text into tokens: identifiers (letters, digits, {@code _} and {@code $},
 * or anything between backticks), numbers, single-quoted strings with {@code ''} for a quote,
 * operators, parentheses, commas and dots. Stateless.
 */
final class PredicateTokenizer {

    private PredicateTokenizer() {}

    static List<Token> tokenize(String text) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            int start = i;
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                while (i < n && isIdentifierPart(text.charAt(i))) {
                    i++;
                }
                tokens.add(new Token(Token.Kind.IDENTIFIER, text.substring(start, i), start));
            } else if (c == '`') {
                int end = text.indexOf('`', i + 1);
                if (end < 0) {
                    throw new PredicateSyntaxException("unterminated quoted name", start, text);
                }
                tokens.add(new Token(Token.Kind.IDENTIFIER, text.substring(i + 1, end), start));
                i = end + 1;
            } else if (Character.isDigit(c)) {
                i = number(text, i);
                tokens.add(new Token(Token.Kind.NUMBER, text.substring(start, i), start));
            } else if (c == '\'') {
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw new PredicateSyntaxException("unterminated string", start, text);
                    }
                    char s = text.charAt(i++);
                    if (s == '\'') {
                        if (i < n && text.charAt(i) == '\'') {
                            value.append('\'');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        value.append(s);
                    }
                }
                tokens.add(new Token(Token.Kind.STRING, value.toString(), start));
            } else if (c == '=' || c == '<' || c == '>' || c == '!') {
                i++;
                if (i < n && (text.charAt(i) == '=' || c == '<' && text.charAt(i) == '>')) {
                    i++;
                }
                String op = text.substring(start, i);
                if (op.equals("!")) {
                    throw new PredicateSyntaxException("expected !=", start, text);
                }
                tokens.add(new Token(Token.Kind.OPERATOR, op, start));
            } else {
                Token.Kind kind = single(c);
                if (kind == null) {
                    throw new PredicateSyntaxException(
                            "unexpected character '" + c + "'", start, text);
                }
                tokens.add(new Token(kind, String.valueOf(c), start));
                i++;
            }
        }
        tokens.add(new Token(Token.Kind.END, "", n));
        return tokens;
    }

    private static Token.Kind single(char c) {
        switch (c) {
            case '(':
                return Token.Kind.LEFT_PAREN;
            case ')':
                return Token.Kind.RIGHT_PAREN;
            case ',':
                return Token.Kind.COMMA;
            case '.':
                return Token.Kind.DOT;
            case '-':
                return Token.Kind.MINUS;
            default:
                return null;
        }
    }

    private static int number(String text, int i) {
        int n = text.length();
        while (i < n && Character.isDigit(text.charAt(i))) {
            i++;
        }
        // A dot followed by a digit continues the number; otherwise it is left for the parser.
        if (i + 1 < n && text.charAt(i) == '.' && Character.isDigit(text.charAt(i + 1))) {
            i++;
            while (i < n && Character.isDigit(text.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
