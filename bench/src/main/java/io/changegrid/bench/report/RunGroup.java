package io.changegrid.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;
import java.util.List;

/**
 * The runs of one configuration on one workload: every result line that differs only in time and
 * measured figures. Reported by its median run (by events/s), with the spread.
 */
record RunGroup(List<JsonNode> runs) {

    /** The fields that make two result lines the same configuration and workload. */
    static final List<String> KEY =
            List.of(
                    "stage",
                    "configuration",
                    "policies",
                    "format",
                    "compression",
                    "records",
                    "recordSize",
                    "tables",
                    "mix",
                    "transactionSize",
                    "source",
                    "bufferBytes",
                    "cores",
                    "rate",
                    "warmupSeconds",
                    "seconds@latency");

    RunGroup {
        runs = runs.stream().sorted(Comparator.comparingDouble(RunGroup::rate)).toList();
    }

    /** The grouping key of a line. */
    static String key(JsonNode line) {
        StringBuilder key = new StringBuilder();
        for (String field : KEY) {
            String name = field.replace("@latency", "");
            if (field.endsWith("@latency") && !line.path("stage").asText().equals("latency")) {
                continue;
            }
            key.append(name).append('=').append(line.path(name).asText()).append(';');
        }
        return key.toString();
    }

    /** The median run (the lower of the two middle ones for an even count). */
    JsonNode median() {
        return runs.get((runs.size() - 1) / 2);
    }

    /**
     * The median of one figure over the runs that have it (the lower middle one for an even count),
     * or empty when none has it: for figures other than events/s, whose median run need not hold
     * their median.
     */
    java.util.OptionalDouble medianOf(String field) {
        double[] values =
                runs.stream()
                        .filter(run -> run.has(field))
                        .mapToDouble(run -> run.get(field).asDouble())
                        .sorted()
                        .toArray();
        return values.length == 0
                ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of(values[(values.length - 1) / 2]);
    }

    JsonNode slowest() {
        return runs.get(0);
    }

    JsonNode fastest() {
        return runs.get(runs.size() - 1);
    }

    String stage() {
        return median().path("stage").asText();
    }

    int relays() {
        return median().path("relays").asInt();
    }

    int consumers() {
        return median().path("consumers").asInt();
    }

    long records() {
        return median().path("records").asLong();
    }

    /** The load the runs read: records, record size, mix, tables, transaction size. */
    String workload() {
        JsonNode m = median();
        return String.format(
                java.util.Locale.ROOT,
                "%,d × %,d B, %s, %d tables, %d/tx",
                m.path("records").asLong(),
                m.path("recordSize").asInt(),
                m.path("mix").asText(),
                m.path("tables").asInt(),
                m.path("transactionSize").asInt());
    }

    String policies() {
        return median().path("policies").asText("none");
    }

    String format() {
        return median().path("format").asText("binary");
    }

    String compression() {
        return median().path("compression").asText("none");
    }

    /** The newest run's time, ISO-8601. */
    String newest() {
        return runs.stream()
                .map(run -> run.path("time").asText())
                .max(String::compareTo)
                .orElse("");
    }

    private static double rate(JsonNode line) {
        return line.has("eventsPerSec")
                ? line.get("eventsPerSec").asDouble()
                : -line.path("p99Ms").asDouble();
    }
}
