package io.changegrid.appliers.it;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads: what is left once label matchers, range and offset
 * selectors, grouping clauses, strings, numbers, function calls and keywords are taken out. Enough
 * for the dashboard's queries, not a PromQL parser.
 */
final class PromQlMetricNames {

    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^\\]]*\\]");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern OFFSETS = Pattern.compile("\\boffset\\s+\\S+");
    private static final Pattern IDENTIFIER =
            Pattern.compile("(?<![0-9.])\\b([a-zA-Z_:][a-zA-Z0-9_:]*)\\b(\\s*\\()?");
    private static final Set<String> KEYWORDS =
            Set.of("and", "or", "unless", "bool", "by", "without", "on", "ignoring", "inf", "nan");

    private PromQlMetricNames() {}

    static Set<String> of(String expression) {
        String rest = STRINGS.matcher(expression).replaceAll(" ");
        rest = MATCHERS.matcher(rest).replaceAll(" ");
        rest = RANGES.matcher(rest).replaceAll(" ");
        rest = GROUPING.matcher(rest).replaceAll(" ");
        rest = OFFSETS.matcher(rest).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher identifier = IDENTIFIER.matcher(rest);
        while (identifier.find()) {
            boolean call = identifier.group(2) != null;
            String name = identifier.group(1);
            if (!call && !KEYWORDS.contains(name.toLowerCase(Locale.ROOT))) {
                names.add(name);
            }
        }
        return names;
    }

    /** The metric names of a Prometheus text exposition: each sample line's name. */
    static Set<String> exported(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }
}
