package io.changegrid.policy.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.policy.select.Predicate.ColumnRef;
import io.changegrid.policy.select.Predicate.Image;
import io.changegrid.policy.select.Predicate.Literal;
import java.util.List;
import org.junit.jupiter.api.Test;

class PredicateParserTest {

    @Test
    void shouldBindAndTighterThanOrWhenMixed() {
        Predicate p = PredicateParser.parse("a = 1 OR b = 2 AND NOT c IS NULL");
        assertThat(p).isInstanceOf(Predicate.Or.class);
        assertThat(((Predicate.Or) p).right()).isInstanceOf(Predicate.And.class);
    }

    @Test
    void shouldReadImagesEscapedStringsAndNegativeNumbersWhenPresent() {
        Predicate p = PredicateParser.parse("before.name = 'O''Brien' and after.x <> -1.50");
        Predicate.And and = (Predicate.And) p;
        assertThat(and.left())
                .isEqualTo(
                        new Predicate.Compare(
                                new ColumnRef(Image.BEFORE, "name"),
                                Predicate.Comparison.EQ,
                                new Literal(Literal.Kind.STRING, "O'Brien")));
        assertThat(and.right())
                .isEqualTo(
                        new Predicate.Compare(
                                new ColumnRef(Image.AFTER, "x"),
                                Predicate.Comparison.NE,
                                new Literal(Literal.Kind.DECIMAL, "-1.50")));
    }

    @Test
    void shouldParseInListsLikeWithEscapeAndIsNotNullWhenWritten() {
        assertThat(PredicateParser.parse("t NOT IN (1, NULL, 'x')"))
                .isEqualTo(
                        new Predicate.In(
                                new ColumnRef(Image.DEFAULT, "t"),
                                List.of(
                                        new Literal(Literal.Kind.INTEGER, "1"),
                                        Literal.NULL,
                                        new Literal(Literal.Kind.STRING, "x")),
                                true));
        assertThat(PredicateParser.parse("s like 'a!%' escape '!'"))
                .isEqualTo(
                        new Predicate.Like(new ColumnRef(Image.DEFAULT, "s"), "a!%", '!', false));
        assertThat(PredicateParser.parse("(`before` IS NOT NULL)"))
                .isEqualTo(new Predicate.IsNull(new ColumnRef(Image.DEFAULT, "before"), true));
    }

    @Test
    void shouldNameOffsetAndTextWhenAValueIsMissingInAnInList() {
        String text = "tenant_id IN (1, )";
        assertThatThrownBy(() -> PredicateParser.parse(text))
                .isInstanceOf(PredicateSyntaxException.class)
                .hasMessage("expected a value after \",\" found \")\" at offset 17: text=" + text);
    }

    @Test
    void shouldReportExactMessagesWhenTextIsMalformed() {
        assertSyntax("a IN 1", "expected ( after \"IN\" found \"1\" at offset 5: text=a IN 1");
        assertSyntax("a = 'x", "unterminated string at offset 4: text=a = 'x");
        assertSyntax(
                "a = 1 b",
                "expected AND, OR or end of text after \"1\" found \"b\" at offset 6: text=a = 1 b");
        assertSyntax("(a = 1", "expected ) after \"1\" found end of text at offset 6: text=(a = 1");
        assertSyntax("a # 1", "unexpected character '#' at offset 2: text=a # 1");
        assertSyntax("AND a = 1", "expected a column found \"AND\" at offset 0: text=AND a = 1");
        assertSyntax(
                "a LIKE 'x' ESCAPE 'ab'",
                "expected a single escape character after \"ESCAPE\" found \"'ab'\" at offset 18: text=a LIKE 'x' ESCAPE 'ab'");
    }

    private static void assertSyntax(String text, String message) {
        assertThatThrownBy(() -> PredicateParser.parse(text))
                .isInstanceOf(PredicateSyntaxException.class)
                .hasMessage(message);
    }

    @Test
    void shouldRefuseNamingTheLimitWhenAPredicateIsTooLong() {
        String text = "a = 1" + " OR a = 1".repeat(PredicateParser.MAX_LENGTH / 9);
        assertThatThrownBy(() -> PredicateParser.parse(text))
                .isInstanceOf(PredicateSyntaxException.class)
                .hasMessageStartingWith(
                        "predicate longer than the limit: length="
                                + text.length()
                                + ", maxLength=4096");
    }

    @Test
    void shouldRefuseNamingTheLimitWhenAPredicateNestsTooDeep() {
        int depth = PredicateParser.MAX_DEPTH;
        assertThat(PredicateParser.parse("(".repeat(depth) + "a = 1" + ")".repeat(depth)))
                .isNotNull();
        assertThatThrownBy(() -> PredicateParser.parse("NOT ".repeat(depth + 1) + "a = 1"))
                .isInstanceOf(PredicateSyntaxException.class)
                .hasMessageStartingWith("predicate nested deeper than the limit: maxDepth=32");
    }
}
