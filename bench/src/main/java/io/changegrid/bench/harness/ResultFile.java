package io.changegrid.bench.harness;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The results file: one JSON object per line and run, appended, never rewritten; {@code report}
 * reads it back. Every line carries the stage, the time and the machine it was measured on.
 */
public final class ResultFile {

    /** The mapper every harness class shares; Jackson's is thread-safe once configured. */
    public static final ObjectMapper JSON = new ObjectMapper();

    private ResultFile() {}

    /** A new result line: stage, time, cores and CPU model. */
    public static ObjectNode newLine(String stage) {
        ObjectNode line = JSON.createObjectNode();
        line.put("stage", stage);
        line.put("time", Instant.now().toString());
        line.put("cores", Machine.cores());
        line.put("cpuModel", Machine.cpuModel());
        return line;
    }

    /**
     * The results file of a run: {@code given} when the user named one, else {@code
     * bench/results/<stage>.jsonl} for the default MySQL source (the files {@code report} turns
     * into the whitepaper's tables) and {@code bench/results/<stage>-<sourceType>.jsonl} for any
     * other, so figures from another source never land among the MySQL ones.
     */
    public static Path defaultFor(Path given, String stage, String sourceType) {
        if (given != null) {
            return given;
        }
        return Path.of(
                "bench/results/"
                        + stage
                        + (sourceType.equals("mysql") ? "" : "-" + sourceType)
                        + ".jsonl");
    }

    /** Prints the line on stdout and appends it to {@code file}, creating its directory. */
    public static void append(Path file, ObjectNode line) throws IOException {
        String text = toText(line);
        System.out.println(text);
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Files.writeString(
                file,
                text + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /** One line of JSON. */
    public static String toText(ObjectNode line) {
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain values always serializes", e);
        }
    }

    /** A rate rounded to whole units, a duration or size to 3 decimals, for readable lines. */
    public static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    /**
     * Puts a measured window's figures: events (and whether they are the expected count), seconds,
     * events/s, MB/s of frames, bytes per event, cores kept busy and CPU load (cores / machine).
     *
     * @param bytes frame bytes of the events
     * @param cpuSeconds CPU the measured processes used in the window
     */
    public static void putThroughput(
            ObjectNode line,
            long events,
            long expected,
            double seconds,
            double bytes,
            double cpuSeconds) {
        line.put("expectedEvents", expected);
        line.put("events", events);
        line.put("countsMatch", events == expected);
        line.put("seconds", round(seconds, 3));
        line.put("eventsPerSec", Math.round(events / seconds));
        line.put("mbPerSec", round(bytes / 1e6 / seconds, 1));
        line.put("eventBytes", events == 0 ? 0 : Math.round(bytes / events));
        line.put("cpu", round(cpuSeconds / seconds, 2));
        line.put("cpuLoad", round(cpuSeconds / seconds / Machine.cores(), 2));
    }
}
