package io.changegrid.policy.select;

import java.util.ArrayList;
import java.util.List;

/**
 * A compiled SQL LIKE pattern: {@code %} is any run of characters, {@code _} exactly one character
 * (one code point), and the escape character makes the next character literal.
 *
 * <p>Matched without backtracking, so a subscription cannot pin a relay core with a pattern such as
 * {@code '%e%e%e%e%z'}: the pattern is cut at its {@code %}s into segments; the first is anchored
 * at the start of the text, the last at its end, and each one between is taken at its leftmost
 * occurrence after the previous one (leftmost is never worse: whatever a later occurrence leaves
 * for the following segments, an earlier one leaves more). A match costs at most the text's length
 * times the longest segment, which the predicate's length limit bounds ({@link PredicateParser}).
 *
 * <p>Immutable and thread-safe.
 */
final class LikePattern {

    /** In a segment: {@code _}, one code point. Other elements are UTF-16 chars. */
    private static final int ANY_ONE = -1;

    private static final int NO_MATCH = -1;

    /** The pattern cut at its {@code %}s: one segment when it has none. */
    private final int[][] segments;

    private LikePattern(int[][] segments) {
        this.segments = segments;
    }

    static LikePattern compile(String like, char escape) {
        List<int[]> segments = new ArrayList<>();
        List<Integer> segment = new ArrayList<>();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == escape && i + 1 < like.length()) {
                segment.add((int) like.charAt(++i));
            } else if (c == '%') {
                segments.add(toArray(segment));
                segment.clear();
            } else if (c == '_') {
                segment.add(ANY_ONE);
            } else {
                segment.add((int) c);
            }
        }
        segments.add(toArray(segment));
        return new LikePattern(segments.toArray(new int[0][]));
    }

    /** Whether the whole of {@code text} matches. */
    boolean matches(String text) {
        int length = text.length();
        if (segments.length == 1) {
            return forward(text, 0, length, segments[0]) == length;
        }
        int from = forward(text, 0, length, segments[0]);
        int to = backward(text, length, segments[segments.length - 1]);
        if (from == NO_MATCH || to == NO_MATCH || to < from) {
            return false;
        }
        for (int s = 1; s < segments.length - 1; s++) {
            from = leftmost(text, from, to, segments[s]);
            if (from == NO_MATCH) {
                return false;
            }
        }
        return true;
    }

    /** The end of the first occurrence of {@code segment} in {@code text[from, to)}, or -1. */
    private static int leftmost(String text, int from, int to, int[] segment) {
        for (int start = from; start <= to; start++) {
            if (start > 0
                    && start < to
                    && Character.isLowSurrogate(text.charAt(start))
                    && Character.isHighSurrogate(text.charAt(start - 1))) {
                continue; // never start inside a code point
            }
            int end = forward(text, start, to, segment);
            if (end != NO_MATCH) {
                return end;
            }
        }
        return NO_MATCH;
    }

    /** The end of {@code segment} matched at {@code start} within {@code limit}, or -1. */
    private static int forward(String text, int start, int limit, int[] segment) {
        int at = start;
        for (int element : segment) {
            if (at >= limit) {
                return NO_MATCH;
            }
            if (element == ANY_ONE) {
                at += Character.charCount(text.codePointAt(at));
                if (at > limit) {
                    return NO_MATCH;
                }
            } else if (text.charAt(at++) != element) {
                return NO_MATCH;
            }
        }
        return at;
    }

    /** The start of {@code segment} matched so that it ends at {@code end}, or -1. */
    private static int backward(String text, int end, int[] segment) {
        int at = end;
        for (int i = segment.length - 1; i >= 0; i--) {
            if (at <= 0) {
                return NO_MATCH;
            }
            if (segment[i] == ANY_ONE) {
                at -= Character.charCount(text.codePointBefore(at));
            } else if (text.charAt(--at) != segment[i]) {
                return NO_MATCH;
            }
        }
        return at;
    }

    private static int[] toArray(List<Integer> elements) {
        int[] array = new int[elements.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = elements.get(i);
        }
        return array;
    }
}
