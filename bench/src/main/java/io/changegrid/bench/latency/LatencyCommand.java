package io.changegrid.bench.latency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.SourceOptions;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.bench.relay.RelayFleet;
import io.changegrid.bench.relay.RelayOptions;
import io.changegrid.bench.relay.RelayPlan;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.PacedLoad;
import io.changegrid.gridkit.process.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Latency from source commit to consumer callback at a steady rate: a relay process and a consumer
 * process run; this process commits {@code --rate} single-row transactions per second, each row
 * carrying {@code System.nanoTime()} taken just before its commit, and the consumer reports the
 * distribution of commit-to-callback delays (CLOCK_MONOTONIC: the processes' times compare).
 */
@Command(
        name = "latency",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Latency: source commit to consumer callback at a steady transaction rate.")
public final class LatencyCommand implements Callable<Integer> {

    @Option(names = "--rate", description = "Transactions per second. Default: ${DEFAULT-VALUE}.")
    int rate = 2_000;

    @Option(
            names = "--seconds",
            description = "How long the measured steady load runs. Default: ${DEFAULT-VALUE}.")
    int seconds = 15;

    @Option(
            names = "--warmup-seconds",
            description =
                    "Steady load before measuring; its rows are not counted. Default: ${DEFAULT-VALUE}.")
    int warmupSeconds = 5;

    @Mixin RelayOptions relayOptions = new RelayOptions();

    @Mixin SourceOptions sourceOptions = new SourceOptions();

    @Option(
            names = "--results",
            description = "File the JSON result line is appended to. Default: ${DEFAULT-VALUE}.")
    Path results = Path.of("bench/results/latency.jsonl");

    @Override
    public Integer call() throws Exception {
        OptionProblems problems = new OptionProblems();
        problems.check(rate >= 1 && rate <= 100_000, "--rate", "must be 1..100000", rate);
        problems.check(seconds >= 1, "--seconds", "must be at least 1", seconds);
        problems.check(warmupSeconds >= 0, "--warmup-seconds", "must be at least 0", warmupSeconds);
        relayOptions.check(problems);
        problems.throwIfAny();
        int count = rate * seconds;
        int warmup = rate * warmupSeconds;
        LoadShape shape = new LoadShape(warmup + count, 200, 1, new OperationMix(100, 0, 0), 1, 0);
        try (WorkDirectory work = WorkDirectory.create("latency");
                BenchSource source =
                        BenchSource.open(sourceOptions, shape.dataBytes(), shape.frameBytes());
                Connection connection = source.connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(
                        "CREATE TABLE `"
                                + source.database()
                                + "`.latency (id BIGINT PRIMARY KEY, sent BIGINT NOT NULL,"
                                + " payload VARCHAR(200))");
            }
            BinlogPosition now = source.masterPosition();
            RelayPlan plan = relayOptions.plan(1, shape, 1, List.of());
            try (RelayFleet relay = RelayFleet.start(source, now, plan, work.newPart("relay"))) {
                relay.awaitListening();
                JsonNode result =
                        measure(
                                connection,
                                source.database(),
                                relay.urls().get(0),
                                warmup,
                                count,
                                work.path());
                report(result, source);
            }
            work.succeeded();
        }
        return 0;
    }

    private JsonNode measure(
            Connection connection,
            String database,
            String relayUrl,
            int warmup,
            int count,
            Path work)
            throws Exception {
        List<String> command =
                BenchJvm.command(
                        "512m",
                        List.of(),
                        LatencyConsumerMain.class.getName(),
                        List.of(relayUrl, Integer.toString(warmup), Integer.toString(count)));
        Process consumer =
                JavaProcess.startReadingOutput(command, work.resolve("latency-consumer.log"));
        try (BufferedReader output =
                new BufferedReader(
                        new InputStreamReader(consumer.getInputStream(), StandardCharsets.UTF_8))) {
            if (lineStartingWith(output, "{\"ready\"") == null) {
                throw new IllegalStateException(
                        "latency consumer did not start: log="
                                + work.resolve("latency-consumer.log"));
            }
            connection.setAutoCommit(false);
            String payload = "x".repeat(180);
            try (PreparedStatement insert =
                            connection.prepareStatement(
                                    "INSERT INTO `" + database + "`.latency VALUES (?, ?, ?)");
                    PacedLoad load =
                            PacedLoad.start(
                                    "latency",
                                    warmup + count,
                                    rate,
                                    id -> {
                                        insert.setLong(1, id);
                                        insert.setLong(2, System.nanoTime());
                                        insert.setString(3, payload);
                                        insert.executeUpdate();
                                        connection.commit();
                                        return 1;
                                    })) {
                // The schedule's length, and as long again for a slow source.
                load.awaitDone(Duration.ofSeconds(2L * (warmup + count) / rate + 60));
            }
            String result = lineStartingWith(output, "{\"count\"");
            if (!consumer.waitFor(5, TimeUnit.MINUTES)
                    || consumer.exitValue() != 0
                    || result == null) {
                throw new IllegalStateException(
                        "latency consumer failed: result="
                                + result
                                + ", log="
                                + work.resolve("latency-consumer.log"));
            }
            return ResultFile.JSON.readTree(result);
        } finally {
            JavaProcess.stop(consumer);
        }
    }

    /** The next line of the consumer's output with the prefix; its log lines share the stream. */
    private static String lineStartingWith(BufferedReader output, String prefix)
            throws IOException {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    private void report(JsonNode result, BenchSource source) throws IOException {
        ObjectNode line = ResultFile.newLine("latency");
        line.put("configuration", "1 relay, 1 consumer, " + rate + " tx/s");
        line.put("source", source.describe());
        line.put("rate", rate);
        line.put("warmupSeconds", warmupSeconds);
        line.put("seconds", seconds);
        for (String field : List.of("count", "p50Ms", "p90Ms", "p99Ms", "p999Ms", "maxMs")) {
            line.set(field, result.get(field));
        }
        System.out.printf(
                Locale.ROOT,
                "%nLatency, source commit to consumer callback, %d tx/s: p50 %.2f ms, p90 %.2f ms,"
                        + " p99 %.2f ms, p99.9 %.2f ms, max %.2f ms (%d rows)%n",
                rate,
                result.get("p50Ms").asDouble(),
                result.get("p90Ms").asDouble(),
                result.get("p99Ms").asDouble(),
                result.get("p999Ms").asDouble(),
                result.get("maxMs").asDouble(),
                result.get("count").asInt());
        ResultFile.append(results, line);
    }
}
