package io.changegrid.policy.select;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
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
}
