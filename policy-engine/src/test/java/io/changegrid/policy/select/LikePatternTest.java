package io.changegrid.policy.select;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LikePatternTest {

    private static boolean like(String pattern, String text) {
        return LikePattern.compile(pattern, '\\').matches(text);
    }

    @Test
    void shouldMatchAsSqlDoesWhenPatternsMixWildcardsAndLiterals() {
        assertThat(like("abc", "abc")).isTrue();
        assertThat(like("abc", "abcd")).isFalse();
        assertThat(like("", "")).isTrue();
        assertThat(like("%", "")).isTrue();
        assertThat(like("_", "")).isFalse();
        assertThat(like("a%c", "ac")).isTrue();
        assertThat(like("a%c", "abcbc")).isTrue();
        assertThat(like("a%c", "abcb")).isFalse();
        assertThat(like("%b%b%", "abab")).isTrue();
        assertThat(like("%b%b%", "ab")).isFalse();
        assertThat(like("ab%ba", "aba")).as("prefix and suffix must not overlap").isFalse();
        assertThat(like("%a_c%", "xxabc")).isTrue();
        assertThat(like("%%x%%", "axb")).isTrue();
        assertThat(like("a\\%b", "a%b")).isTrue();
        assertThat(like("a\\%b", "axb")).isFalse();
        assertThat(like("%_", "\uD83D\uDE00")).as("_ is one code point").isTrue();
        assertThat(like("__", "\uD83D\uDE00")).isFalse();
        assertThat(like("%_x", "\uD83D\uDE00x")).isTrue();
        assertThat(like("%\uDE00%", "\uD83D\uDE00"))
                .as("a segment never starts inside a code point")
                .isFalse();
    }

    @Test
    void shouldAnswerInMillisecondsWhenAPatternWouldMakeARegexBacktrack() {
        String text = "e".repeat(100 * 1024);
        long start = System.nanoTime();
        boolean matched = like("%e%e%e%e%e%e%e%z", text);
        boolean matchedEnd = like("%e%e%e%e%e%e%e%z", text + "z");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(matched).isFalse();
        assertThat(matchedEnd).isTrue();
        // Milliseconds here; the bound is loose because CI machines are slow and shared.
        assertThat(took).isLessThan(Duration.ofSeconds(1));
    }

    /**
     * Patterns that make a naive search compare a long segment at every position of a long text
     * (4,000 × 1,000,000 comparisons, tens of seconds): each code point is looked at once per 64
     * elements of the segment instead.
     */
    @Test
    void shouldAnswerInLinearTimeWhenALongSegmentAlmostMatchesEverywhere() {
        String text = "a".repeat(1_000_000);
        String literal = "%" + "a".repeat(4000) + "b%";
        String withAny = "%" + "_a".repeat(2000) + "b%";
        long start = System.nanoTime();
        boolean literalMatched = like(literal, text);
        boolean anyMatched = like(withAny, text);
        boolean endMatched = like(literal, text + "b");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(literalMatched).isFalse();
        assertThat(anyMatched).isFalse();
        assertThat(endMatched).isTrue();
        // About 0.2 s of work here; a naive search would take minutes.
        assertThat(took).isLessThan(Duration.ofSeconds(10));
    }

    /**
     * Random patterns and texts over a small alphabet, against java.util.regex as the reference.
     */
    @Test
    void shouldAgreeWithARegexWhenPatternsAndTextsAreRandom() {
        long seed = Long.getLong("seed", System.nanoTime());
        Random random = new Random(seed);
        String[] textUnits = {"a", "b", "\uD83D\uDE00"};
        String[] patternUnits = {"a", "b", "_", "%", "\\%", "\uD83D\uDE00"};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder pattern = new StringBuilder();
            StringBuilder regex = new StringBuilder();
            for (int n = random.nextInt(8); n > 0; n--) {
                String unit = patternUnits[random.nextInt(patternUnits.length)];
                pattern.append(unit);
                regex.append(
                        switch (unit) {
                            case "_" -> ".";
                            case "%" -> ".*";
                            case "\\%" -> "%";
                            default -> Pattern.quote(unit);
                        });
            }
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(10); n > 0; n--) {
                text.append(textUnits[random.nextInt(textUnits.length)]);
            }
            boolean expected =
                    Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(text).matches();
            assertThat(like(pattern.toString(), text.toString()))
                    .as("seed=%d, pattern=%s, text=%s", seed, pattern, text)
                    .isEqualTo(expected);
        }
    }
}
