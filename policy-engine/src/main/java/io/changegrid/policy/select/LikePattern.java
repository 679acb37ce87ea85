package io.changegrid.policy.select;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A compiled SQL LIKE pattern: {@code %} is any run of characters, {@code _} exactly one character
 * (one code point), and the escape character makes the next character literal.
 *
 * <p>Matched in time linear in the text, without backtracking, so a subscription cannot pin a relay
 * core with a pattern such as {@code '%e%e%e%e%z'} or {@code '%aaaa…ab%'}: the pattern is cut at
 * its {@code %}s into segments; the first is anchored at the start of the text, the last at its
 * end, and each one between is taken at its leftmost occurrence after the previous one (leftmost is
 * never worse: whatever a later occurrence leaves for the following segments, an earlier one leaves
 * more). A middle segment is searched for with Shift-And, one pass over the text that keeps, as
 * bits, every prefix of the segment that ends at the current code point, so each code point of the
 * text is looked at once per segment-sized word of bits ({@code ceil(length / 64)}, at most 64 at
 * the predicate's length limit, {@link PredicateParser}); and the searches of successive segments
 * cover disjoint stretches of the text.
 *
 * <p>Text and pattern are compared by code point, so {@code _} takes a whole surrogate pair and no
 * match starts inside one.
 *
 * <p>Immutable and thread-safe; a match allocates nothing unless a segment is longer than 64 code
 * points.
 */
final class LikePattern {

    /** In a segment: {@code _}, one code point. Other elements are code points. */
    private static final int ANY_ONE = -1;

    private static final int NO_MATCH = -1;
    private static final int ASCII = 128;

    /** The pattern cut at its {@code %}s: one segment when it has none. */
    private final Segment[] segments;

    private LikePattern(Segment[] segments) {
        this.segments = segments;
    }

    static LikePattern compile(String like, char escape) {
        List<Segment> segments = new ArrayList<>();
        List<Integer> segment = new ArrayList<>();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == escape && i + 1 < like.length()) {
                addLiteral(segment, like.charAt(++i));
            } else if (c == '%') {
                segments.add(new Segment(segment));
                segment.clear();
            } else if (c == '_') {
                segment.add(ANY_ONE);
            } else {
                addLiteral(segment, c);
            }
        }
        segments.add(new Segment(segment));
        return new LikePattern(segments.toArray(new Segment[0]));
    }

    /** Adds a UTF-16 char, joining a low surrogate to the high one before it into a code point. */
    private static void addLiteral(List<Integer> segment, char c) {
        int last = segment.size() - 1;
        if (Character.isLowSurrogate(c)
                && last >= 0
                && segment.get(last) >= 0
                && segment.get(last) <= Character.MAX_VALUE
                && Character.isHighSurrogate((char) (int) segment.get(last))) {
            segment.set(last, Character.toCodePoint((char) (int) segment.get(last), c));
        } else {
            segment.add((int) c);
        }
    }

    /** Whether the whole of {@code text} matches. */
    boolean matches(String text) {
        int length = text.length();
        if (segments.length == 1) {
            return forward(text, 0, length, segments[0].elements) == length;
        }
        int from = forward(text, 0, length, segments[0].elements);
        int to = backward(text, length, segments[segments.length - 1].elements);
        if (from == NO_MATCH || to == NO_MATCH || to < from) {
            return false;
        }
        for (int s = 1; s < segments.length - 1; s++) {
            from = segments[s].leftmost(text, from, to);
            if (from == NO_MATCH) {
                return false;
            }
        }
        return true;
    }

    /** The end of {@code elements} matched at {@code start} within {@code limit}, or -1. */
    private static int forward(String text, int start, int limit, int[] elements) {
        int at = start;
        for (int element : elements) {
            if (at >= limit) {
                return NO_MATCH;
            }
            int codePoint = text.codePointAt(at);
            if (element != ANY_ONE && element != codePoint) {
                return NO_MATCH;
            }
            at += Character.charCount(codePoint);
        }
        return at <= limit ? at : NO_MATCH;
    }

    /** The start of {@code elements} matched so that they end at {@code end}, or -1. */
    private static int backward(String text, int end, int[] elements) {
        int at = end;
        for (int i = elements.length - 1; i >= 0; i--) {
            if (at <= 0) {
                return NO_MATCH;
            }
            int codePoint = text.codePointBefore(at);
            if (elements[i] != ANY_ONE && elements[i] != codePoint) {
                return NO_MATCH;
            }
            at -= Character.charCount(codePoint);
        }
        return at;
    }

    /**
     * One run of the pattern between {@code %}s, with its Shift-And tables: for each code point
     * that occurs in it, a bit per element that it matches (an {@code _} matches every code point).
     */
    private static final class Segment {
        final int[] elements;
        private final int words;
        private final long[] any; // [word]: the _ elements
        private final int[] others; // the code points from 128 that occur, sorted
        // [row * words + word]: rows 0..127 for ASCII, then one per code point of others
        private final long[] masks;

        Segment(List<Integer> list) {
            elements = list.stream().mapToInt(Integer::intValue).toArray();
            words = Math.max(1, (elements.length + 63) >>> 6);
            any = new long[words];
            others =
                    Arrays.stream(elements)
                            .filter(element -> element >= ASCII)
                            .distinct()
                            .sorted()
                            .toArray();
            masks = new long[(ASCII + others.length) * words];
            for (int j = 0; j < elements.length; j++) {
                long bit = 1L << (j & 63);
                int word = j >>> 6;
                if (elements[j] == ANY_ONE) {
                    any[word] |= bit;
                } else {
                    masks[row(elements[j]) * words + word] |= bit;
                }
            }
        }

        /** The row of {@code codePoint}'s bits in {@link #masks}, or -1 if it does not occur. */
        private int row(int codePoint) {
            if (codePoint < ASCII) {
                return codePoint;
            }
            int index = Arrays.binarySearch(others, codePoint);
            return index < 0 ? -1 : ASCII + index;
        }

        /** The elements the code point of {@code row} matches, in {@code word}. */
        private long mask(int row, int word) {
            return row < 0 ? any[word] : masks[row * words + word] | any[word];
        }

        /** The end of the first occurrence of this segment in {@code text[from, to)}, or -1. */
        int leftmost(String text, int from, int to) {
            int m = elements.length;
            if (m == 0) {
                return from;
            }
            long accept = 1L << ((m - 1) & 63);
            int acceptWord = (m - 1) >>> 6;
            if (words == 1) {
                long state = 0;
                for (int at = from; at < to; ) {
                    int codePoint = text.codePointAt(at);
                    at += Character.charCount(codePoint);
                    state = ((state << 1) | 1L) & mask(row(codePoint), 0);
                    if ((state & accept) != 0 && at <= to) {
                        return at;
                    }
                }
                return NO_MATCH;
            }
            long[] state = new long[words];
            for (int at = from; at < to; ) {
                int codePoint = text.codePointAt(at);
                at += Character.charCount(codePoint);
                int row = row(codePoint);
                long carry = 1L;
                for (int word = 0; word < words; word++) {
                    long bits = state[word];
                    state[word] = ((bits << 1) | carry) & mask(row, word);
                    carry = bits >>> 63;
                }
                if ((state[acceptWord] & accept) != 0 && at <= to) {
                    return at;
                }
            }
            return NO_MATCH;
        }
    }
}
