package io.changegrid.bench.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Prints result lines as the whitepaper's tables do: configuration, records, record size, CPU load,
 * cores used, duration, events/s, Mbit/s; plus the heap the measured processes used.
 */
public final class ResultTable {

    private static final String HEADER = "%-34s %11s %7s %6s %6s %9s %11s %9s %10s%n";
    private static final String ROW = "%-34s %,11d %7d %6.2f %6.2f %9.2f %,11.0f %,9.0f %10s%n";

    private ResultTable() {}

    /**
     * Prints the table, then whether every line that {@code mustCountAll} counted exactly the
     * events its load generated.
     *
     * @return the run's exit status: 0 if they did, 1 if one did not
     */
    public static int printCounted(
            PrintStream out,
            String title,
            List<? extends JsonNode> lines,
            Predicate<JsonNode> mustCountAll) {
        print(out, title, lines);
        boolean counted =
                lines.stream()
                        .filter(mustCountAll)
                        .allMatch(line -> line.path("countsMatch").asBoolean());
        out.println(
                counted
                        ? "counted events == generated events in every run"
                        : "COUNTED EVENTS != GENERATED EVENTS in some run: see countsMatch above");
        return counted ? 0 : 1;
    }

    /** Prints a title and one row per line. */
    public static void print(PrintStream out, String title, List<? extends JsonNode> lines) {
        out.printf(
                Locale.ROOT, "%n%s, %d cores (%s)%n", title, Machine.cores(), Machine.cpuModel());
        out.printf(
                Locale.ROOT,
                HEADER,
                "configuration",
                "# events",
                "size",
                "load",
                "cores",
                "duration",
                "rate ev/s",
                "Mbit/s",
                "heap max");
        for (JsonNode line : lines) {
            out.printf(
                    Locale.ROOT,
                    ROW,
                    line.path("configuration").asText(),
                    line.path("events").asLong(),
                    line.path("recordSize").asInt(),
                    line.path("cpuLoad").asDouble(),
                    line.path("cpu").asDouble(),
                    line.path("seconds").asDouble(),
                    line.path("eventsPerSec").asDouble(),
                    line.path("mbPerSec").asDouble() * 8,
                    line.has("heapMax") ? (line.get("heapMax").asLong() >> 20) + " MB" : "-");
            if (line.hasNonNull("warning")) {
                out.println("  ! " + line.get("warning").asText());
            }
        }
    }
}
