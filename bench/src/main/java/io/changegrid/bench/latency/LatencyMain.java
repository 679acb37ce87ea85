package io.changegrid.bench.latency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.bench.stage1.RelayRun;
import io.changegrid.bench.stage1.StageSource;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.testkit.MariaDbServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Latency from source commit to consumer callback at a steady rate: a private MariaDB, a relay
 * process and a consumer process are running; this process commits {@code --rate} single-row
 * transactions per second, each row carrying the time just before its commit, and the consumer
 * reports the distribution of commit-to-callback delays.
 */
@Command(
        name = "latency",
        mixinStandardHelpOptions = true,
        description =
                "Latency benchmark: source commit to consumer callback at a steady transaction rate.")
public final class LatencyMain implements Callable<Integer> {

    @Option(names = "--rate", description = "Transactions per second. Default: ${DEFAULT-VALUE}.")
    int rate = 2_000;

    @Option(
            names = "--seconds",
            description = "How long the steady load runs. Default: ${DEFAULT-VALUE}.")
    int seconds = 15;

    @Option(
            names = "--warmup-seconds",
            description =
                    "Steady load before measuring; its rows are not counted. Default: ${DEFAULT-VALUE}.")
    int warmupSeconds = 5;

    @Option(
            names = "--results",
            description = "File the JSON result line is appended to. Default: ${DEFAULT-VALUE}.")
    Path results = Path.of("bench/results/latency.jsonl");

    public static void main(String[] args) {
        System.exit(new CommandLine(new LatencyMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        int count = rate * seconds;
        int warmup = rate * warmupSeconds;
        Path work = Files.createTempDirectory("changegrid-latency-");
        try (MariaDbServer server = MariaDbServer.start(StageSource.sourceConfig());
                Connection connection = server.connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE bench");
                statement.execute(
                        "CREATE TABLE bench.latency (id BIGINT PRIMARY KEY, sent BIGINT NOT NULL,"
                                + " payload VARCHAR(200))");
            }
            BinlogPosition now = StageSource.masterPosition(connection);
            new RelayRun(List.of(), "direct")
                    .run(
                            server,
                            now,
                            now,
                            0,
                            work,
                            "512m",
                            256L << 20,
                            (relayUrl, relay, bytesPerEvent, firstPublishNanos) -> {
                                JsonNode result = measure(connection, relayUrl, warmup, count);
                                report(result);
                            });
        }
        return 0;
    }

    private JsonNode measure(Connection connection, String relayUrl, int warmup, int count)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process consumer =
                new ProcessBuilder(
                                List.of(
                                        java,
                                        "-Xmx512m",
                                        "-XX:+UseG1GC",
                                        "-XX:+AlwaysPreTouch",
                                        "-cp",
                                        System.getProperty("java.class.path"),
                                        LatencyConsumerMain.class.getName(),
                                        relayUrl,
                                        Integer.toString(warmup),
                                        Integer.toString(count)))
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
        BufferedReader output =
                new BufferedReader(
                        new InputStreamReader(consumer.getInputStream(), StandardCharsets.UTF_8));
        if (lineStartingWith(output, "{\"ready\"") == null) {
            throw new IllegalStateException("latency consumer did not start");
        }
        connection.setAutoCommit(false);
        String payload = "x".repeat(180);
        long interval = 1_000_000_000L / rate;
        long next = System.nanoTime();
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO bench.latency VALUES (?, ?, ?)")) {
            for (int id = 1; id <= warmup + count; id++) {
                insert.setLong(1, id);
                insert.setLong(2, System.nanoTime());
                insert.setString(3, payload);
                insert.executeUpdate();
                connection.commit();
                next += interval;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        }
        String result = lineStartingWith(output, "{\"count\"");
        if (!consumer.waitFor(5, TimeUnit.MINUTES) || consumer.exitValue() != 0 || result == null) {
            throw new IllegalStateException("latency consumer failed: " + result);
        }
        return new ObjectMapper().readTree(result);
    }

    /** The next line of the consumer's output with the prefix; its log lines share the stream. */
    private static String lineStartingWith(BufferedReader output, String prefix)
            throws java.io.IOException {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    private void report(JsonNode result) throws Exception {
        String line =
                String.format(
                        Locale.ROOT,
                        "{\"stage\":\"latency\",\"time\":\"%s\",\"cores\":%d,\"rate\":%d,\"warmupSeconds\":%d,\"seconds\":%d,\"count\":%d,"
                                + "\"p50Ms\":%.3f,\"p90Ms\":%.3f,\"p99Ms\":%.3f,\"p999Ms\":%.3f,\"maxMs\":%.3f}",
                        Instant.now(),
                        Runtime.getRuntime().availableProcessors(),
                        rate,
                        warmupSeconds,
                        seconds,
                        result.get("count").asInt(),
                        result.get("p50Ms").asDouble(),
                        result.get("p90Ms").asDouble(),
                        result.get("p99Ms").asDouble(),
                        result.get("p999Ms").asDouble(),
                        result.get("maxMs").asDouble());
        System.out.println(line);
        Files.createDirectories(results.toAbsolutePath().getParent());
        Files.writeString(
                results,
                line + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
