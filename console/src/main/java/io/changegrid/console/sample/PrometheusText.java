package io.changegrid.console.sample;

import java.util.OptionalDouble;

/**
 * Reads one metric out of the Prometheus text format a relay's {@code /metrics} serves: the sum of
 * every sample of that name (over all its label sets).
 */
final class PrometheusText {

    private PrometheusText() {}

    /** The sum of {@code name}'s samples, or empty if the text has none. */
    static OptionalDouble sum(String text, String name) {
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (!line.startsWith(name) || line.length() == name.length()) {
                continue;
            }
            char next = line.charAt(name.length());
            if (next != ' ' && next != '{') {
                continue; // another metric whose name starts alike
            }
            int value = line.lastIndexOf(' ');
            if (line.endsWith("}") || value < 0) {
                continue;
            }
            try {
                sum += Double.parseDouble(line.substring(value + 1));
                found = true;
            } catch (NumberFormatException e) {
                // Not a sample line (a timestamped one would end in digits too, but Micrometer
                // writes none): skip it rather than show a wrong rate.
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }
}
