package io.changegrid.policy.select;

import io.changegrid.policy.select.Predicate.ColumnRef;
import io.changegrid.policy.select.Predicate.Comparison;
import io.changegrid.policy.select.Predicate.Image;
import io.changegrid.policy.select.Predicate.Literal;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser of {@code where:} texts. Keywords are case-insensitive.
 *
 * <pre>
 * or      := and (OR and)*
 * and     := unary (AND unary)*
 * unary   := NOT unary | '(' or ')' | column tail
 * column  := [BEFORE '.' | AFTER '.'] name
 * tail    := op literal | [NOT] IN '(' literal (',' literal)* ')'
 *          | [NOT] LIKE string [ESCAPE string] | IS [NOT] NULL
 * op      := = | != | &lt;&gt; | &lt; | &lt;= | &gt; | &gt;=
 * literal := ['-'] number | string | NULL | TRUE | FALSE
 * </pre>
 *
 * A predicate is judged for every row of its table, in the relay for subscriptions that any client
 * sends: its text is at most {@value #MAX_LENGTH} characters and its nesting (parentheses and NOT)
 * at most {@value #MAX_DEPTH} deep, so that neither its evaluation nor this parser's recursion can
 * be made arbitrarily costly. Each limit is refused naming it.
 *
 * <p>One instance parses one text; not thread-safe, use {@link #parse(String)}.
 */
public final class PredicateParser {

    /** The longest predicate text accepted, in UTF-16 chars. */
    public static final int MAX_LENGTH = 4096;

    /** The deepest nesting of parentheses and NOT accepted. */
    public static final int MAX_DEPTH = 32;

    private final String text;
    private final List<Token> tokens;
    private int position;
    private int depth;

    private PredicateParser(String text) {
        this.text = text;
        this.tokens = PredicateTokenizer.tokenize(text);
    }

    /**
     * Parses a {@code where:} text.
     *
     * @throws PredicateSyntaxException naming what was expected, the offset and the text
     */
    public static Predicate parse(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new PredicateSyntaxException(
                    "predicate longer than the limit: length="
                            + text.length()
                            + ", maxLength="
                            + MAX_LENGTH,
                    MAX_LENGTH,
                    text.substring(0, 64) + "...");
        }
        PredicateParser parser = new PredicateParser(text);
        Predicate predicate = parser.or();
        if (parser.peek().kind() != Token.Kind.END) {
            throw parser.expected("AND, OR or end of text");
        }
        return predicate;
    }

    private Predicate or() {
        Predicate left = and();
        while (peek().isKeyword("OR")) {
            position++;
            left = new Predicate.Or(left, and());
        }
        return left;
    }

    private Predicate and() {
        Predicate left = unary();
        while (peek().isKeyword("AND")) {
            position++;
            left = new Predicate.And(left, unary());
        }
        return left;
    }

    private Predicate unary() {
        Token token = peek();
        if (token.isKeyword("NOT")) {
            enter();
            Predicate inner = new Predicate.Not(unary());
            depth--;
            return inner;
        }
        if (token.kind() == Token.Kind.LEFT_PAREN) {
            enter();
            Predicate inner = or();
            expect(Token.Kind.RIGHT_PAREN, ")");
            depth--;
            return inner;
        }
        return tail(column());
    }

    /** Steps into a NOT or a parenthesis, refusing nesting past {@link #MAX_DEPTH}. */
    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw new PredicateSyntaxException(
                    "predicate nested deeper than the limit: maxDepth=" + MAX_DEPTH,
                    peek().offset(),
                    text);
        }
        position++;
    }

    private ColumnRef column() {
        Token name = expect(Token.Kind.IDENTIFIER, "a column");
        if (isReserved(name)) {
            position--;
            throw expected("a column");
        }
        Image image = Image.DEFAULT;
        if (peek().kind() == Token.Kind.DOT
                && (name.isKeyword("before") || name.isKeyword("after"))) {
            position++;
            image = name.isKeyword("before") ? Image.BEFORE : Image.AFTER;
            name = expect(Token.Kind.IDENTIFIER, "a column");
        }
        return new ColumnRef(image, name.text());
    }

    private Predicate tail(ColumnRef column) {
        Token token = peek();
        if (token.kind() == Token.Kind.OPERATOR) {
            position++;
            return new Predicate.Compare(column, comparison(token.text()), literal());
        }
        if (token.isKeyword("IS")) {
            position++;
            boolean negated = acceptKeyword("NOT");
            expectKeyword("NULL");
            return new Predicate.IsNull(column, negated);
        }
        boolean negated = acceptKeyword("NOT");
        if (acceptKeyword("IN")) {
            expect(Token.Kind.LEFT_PAREN, "(");
            List<Literal> values = new ArrayList<>();
            values.add(literal());
            while (peek().kind() == Token.Kind.COMMA) {
                position++;
                values.add(literal());
            }
            expect(Token.Kind.RIGHT_PAREN, ", or )");
            return new Predicate.In(column, values, negated);
        }
        if (acceptKeyword("LIKE")) {
            String pattern = expect(Token.Kind.STRING, "a quoted pattern").text();
            char escape = '\\';
            if (acceptKeyword("ESCAPE")) {
                Token escapeToken = expect(Token.Kind.STRING, "a quoted escape character");
                if (escapeToken.text().length() != 1) {
                    position--;
                    throw expected("a single escape character");
                }
                escape = escapeToken.text().charAt(0);
            }
            return new Predicate.Like(column, pattern, escape, negated);
        }
        throw expected(negated ? "IN or LIKE" : "a comparison, IN, LIKE or IS");
    }

    private Literal literal() {
        Token token = peek();
        position++;
        switch (token.kind()) {
            case NUMBER:
                return number(token.text());
            case MINUS:
                if (peek().kind() == Token.Kind.NUMBER) {
                    return number("-" + tokens.get(position++).text());
                }
                break;
            case STRING:
                return new Literal(Literal.Kind.STRING, token.text());
            case IDENTIFIER:
                if (token.isKeyword("NULL")) {
                    return Literal.NULL;
                }
                if (token.isKeyword("TRUE") || token.isKeyword("FALSE")) {
                    return new Literal(Literal.Kind.BOOLEAN, token.text().toUpperCase());
                }
                break;
            default:
                break;
        }
        position--;
        throw expected("a value");
    }

    private static Literal number(String digits) {
        return new Literal(
                digits.indexOf('.') >= 0 ? Literal.Kind.DECIMAL : Literal.Kind.INTEGER, digits);
    }

    private static Comparison comparison(String symbol) {
        switch (symbol) {
            case "=":
                return Comparison.EQ;
            case "!=":
            case "<>":
                return Comparison.NE;
            case "<":
                return Comparison.LT;
            case "<=":
                return Comparison.LE;
            case ">":
                return Comparison.GT;
            default:
                return Comparison.GE;
        }
    }

    private static boolean isReserved(Token token) {
        for (String keyword : new String[] {"AND", "OR", "NOT", "IN", "LIKE", "IS", "NULL"}) {
            if (token.isKeyword(keyword)) {
                return true;
            }
        }
        return false;
    }

    private Token peek() {
        return tokens.get(position);
    }

    private boolean acceptKeyword(String keyword) {
        if (peek().isKeyword(keyword)) {
            position++;
            return true;
        }
        return false;
    }

    private void expectKeyword(String keyword) {
        if (!acceptKeyword(keyword)) {
            throw expected(keyword);
        }
    }

    private Token expect(Token.Kind kind, String what) {
        if (peek().kind() != kind) {
            throw expected(what);
        }
        return tokens.get(position++);
    }

    /** "expected X after PREVIOUS at offset N: text=..." — the offset of the offending token. */
    private PredicateSyntaxException expected(String what) {
        String after = position == 0 ? "" : " after " + tokens.get(position - 1).describe();
        return new PredicateSyntaxException(
                "expected " + what + after + " found " + peek().describe(), peek().offset(), text);
    }
}
