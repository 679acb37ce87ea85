package io.changegrid.bench.consumer;

import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.Partitioning;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/** How the harness runs its measuring consumers, on the command line. */
public final class ConsumerOptions {

    @Option(
            names = "--consumer-partitioning",
            description =
                    "How several consumers of one relay split its stream: key (hash) or table."
                            + " Default: ${DEFAULT-VALUE}.")
    String partitioning = "key";

    @Option(
            names = "--format",
            split = ",",
            description =
                    "Consumer formats to run: binary (the consumer library), json (HTTP client and"
                            + " a streaming JSON parser). Default: binary.")
    List<String> formats = List.of("binary");

    @Option(
            names = "--compression",
            split = ",",
            description = "Wire compressions to run: none, gzip. Default: none.")
    List<String> compressions = List.of("none");

    @Option(
            names = "--consumer-heap",
            description = "Each consumer's heap (-Xmx, -Xms). Default: ${DEFAULT-VALUE}.")
    String heap = "1g";

    @Option(
            names = "--consumer-buffer-size",
            description = "Each consumer's event buffer in bytes. Default: ${DEFAULT-VALUE}.")
    long bufferBytes = 64L << 20;

    @Option(
            names = "--consumer-java-options",
            split = " ",
            description =
                    "More JVM options for every consumer; {consumer} becomes its number, {run} the"
                            + " run's name, e.g."
                            + " -XX:StartFlightRecording=filename={run}-consumer-{consumer}.jfr,settings=profile")
    List<String> javaOptions = new java.util.ArrayList<>();

    /** Adds every problem of these options to {@code problems}. */
    public void check(OptionProblems problems) {
        problems.check(
                partitioning.equals("key") || partitioning.equals("table"),
                "--consumer-partitioning",
                "expected key or table",
                partitioning);
        for (String format : formats) {
            problems.check(
                    format.equals("binary") || format.equals("json"),
                    "--format",
                    "each must be binary or json",
                    formats);
        }
        for (String compression : compressions) {
            problems.check(
                    compression.equals("none") || compression.equals("gzip"),
                    "--compression",
                    "each must be none or gzip",
                    compressions);
        }
        problems.check(
                bufferBytes >= 64 << 10 && bufferBytes <= 1L << 30,
                "--consumer-buffer-size",
                "must be 64KiB..1GiB",
                bufferBytes);
    }

    public Partitioning partitioning() {
        return Partitioning.valueOf(partitioning.toUpperCase(Locale.ROOT));
    }

    public List<String> formats() {
        return formats;
    }

    public List<String> compressions() {
        return compressions;
    }

    public String heap() {
        return heap;
    }

    public long bufferBytes() {
        return bufferBytes;
    }

    /** More JVM options for every consumer, with {@code {consumer}} not yet replaced. */
    public List<String> javaOptions() {
        return javaOptions;
    }
}
