package io.changegrid.bench.stage1;

import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.testkit.MariaDbConfig;
import io.changegrid.testkit.MariaDbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The whitepaper's stage 1 (source to relay) on this machine: load the whitepaper-shaped workload
 * into a private MariaDB with no relay running, then, over the same binlog range, time a bare
 * {@code BinaryLogClient} (the ceiling) and a relay process from its first to its last published
 * transaction. Prints a whitepaper-style table and one JSON line, appended to {@code --results}.
 */
@Command(
        name = "stage1",
        mixinStandardHelpOptions = true,
        description = "Stage 1 benchmark: MySQL/MariaDB binlog to relay event buffer.")
public final class Stage1Main implements Callable<Integer> {

    @Option(
            names = "--rows",
            description = "Rows inserted (each is then updated once). Default: ${DEFAULT-VALUE}.")
    long rows = 300_000;

    @Option(
            names = "--tables",
            description = "Tables the rows are spread over. Default: ${DEFAULT-VALUE}.")
    int tables = 3;

    @Option(
            names = "--transaction-rows",
            description = "Rows per source transaction. Default: ${DEFAULT-VALUE}.")
    int transactionRows = 100;

    @Option(
            names = "--relay-heap",
            description = "Relay process heap (-Xmx). Default: ${DEFAULT-VALUE}.")
    String relayHeap = "512m";

    @Option(
            names = "--buffer-storage",
            description =
                    "Relay buffer storage: direct or mapped (in /dev/shm). Default: ${DEFAULT-VALUE}.")
    String bufferStorage = "direct";

    @Option(
            names = "--relay-java-options",
            split = " ",
            description =
                    "Extra JVM options for the relay process, e.g. -XX:StartFlightRecording=...")
    java.util.List<String> relayJavaOptions = new java.util.ArrayList<>();

    @Option(
            names = "--seed",
            description = "Random seed of the generated data. Default: ${DEFAULT-VALUE}.")
    long seed = 42;

    @Option(
            names = "--results",
            description = "File the JSON result line is appended to. Default: ${DEFAULT-VALUE}.")
    Path results = Path.of("bench/results/stage1.jsonl");

    public static void main(String[] args) {
        System.exit(new CommandLine(new Stage1Main()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path work = Files.createTempDirectory("changegrid-stage1-");
        MariaDbConfig source = StageSource.sourceConfig();
        try (MariaDbServer server = MariaDbServer.start(source)) {
            WhitepaperLoad load = new WhitepaperLoad(tables, transactionRows, seed);
            BinlogPosition from;
            BinlogPosition to;
            ProgressLine loadProgress = new ProgressLine(System.err, "load", 2 * rows);
            try (Connection connection = server.connect()) {
                load.createTables(connection);
                from = StageSource.masterPosition(connection);
                load.insert(connection, rows, loadProgress::report);
                load.update(connection, rows, loadProgress::report);
                to = StageSource.masterPosition(connection);
            }
            double loadSeconds = loadProgress.seconds();
            System.err.printf(
                    "load: %,d row changes in %.1f s (%,.0f rows/s), binlog %s .. %s%n",
                    2 * rows, loadSeconds, 2 * rows / loadSeconds, from, to);

            BareBinlogReader.Result bare = BareBinlogReader.read(server, from, to);
            System.err.printf(
                    "bare BinaryLogClient: %,d rows in %.2f s%n", bare.rows(), bare.seconds());

            long bufferBytes =
                    Math.max(256L << 20, ((2 * rows * 1700) / (64L << 20) + 2) * (64L << 20));
            RelayRun.Result relay =
                    new RelayRun(relayJavaOptions, bufferStorage)
                            .run(
                                    server,
                                    from,
                                    to,
                                    2 * rows,
                                    work,
                                    relayHeap,
                                    bufferBytes,
                                    RelayRun.WhileServing.NOTHING);

            report(bare, relay, loadSeconds);
            return relay.events() == 2 * rows && bare.rows() == 2 * rows ? 0 : 1;
        }
    }

    private void report(BareBinlogReader.Result bare, RelayRun.Result relay, double loadSeconds)
            throws Exception {
        long changes = 2 * rows;
        double relayRate = relay.events() / relay.seconds();
        double bareRate = bare.rows() / bare.seconds();
        double relayMb = relay.bytes() / 1e6 / relay.seconds();
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(
                Locale.ROOT, "%nStage 1 (binlog to relay event buffer), %d cores%n", cores);
        System.out.printf(
                Locale.ROOT,
                "%-22s %12s %10s %12s %10s %8s %12s%n",
                "configuration",
                "row changes",
                "seconds",
                "rows/s",
                "MB/s",
                "CPU",
                "heap max");
        System.out.printf(
                Locale.ROOT,
                "%-22s %,12d %10.2f %,12.0f %10s %8.2f %12s%n",
                "bare BinaryLogClient",
                bare.rows(),
                bare.seconds(),
                bareRate,
                "-",
                bare.cpuSeconds() / bare.seconds(),
                "-");
        System.out.printf(
                Locale.ROOT,
                "%-22s %,12d %10.2f %,12.0f %10.1f %8.2f %9d MB%n",
                "relay (1 process)",
                relay.events(),
                relay.seconds(),
                relayRate,
                relayMb,
                relay.cpuSeconds() / relay.secondsWithStartup(),
                relay.heapMaxUsed() >> 20);
        System.out.printf(
                Locale.ROOT,
                "relay / bare = %.2f; relay heap limit %s; counted %s generated%n",
                relayRate / bareRate,
                relay.heapLimit(),
                relay.events() == changes && bare.rows() == changes ? "==" : "!=");
        String json =
                String.format(
                        Locale.ROOT,
                        "{\"stage\":\"stage1\",\"time\":\"%s\",\"cores\":%d,\"rows\":%d,\"tables\":%d,\"transactionRows\":%d,"
                                + "\"events\":%d,\"seconds\":%.3f,\"eventsPerSec\":%.0f,\"mbPerSec\":%.1f,"
                                + "\"cpu\":%.2f,\"heapMax\":%d,\"heapLimit\":\"%s\",\"bareEventsPerSec\":%.0f,"
                                + "\"bareCpu\":%.2f,\"ratio\":%.3f,\"secondsWithStartup\":%.3f,\"loadSeconds\":%.1f}",
                        Instant.now(),
                        cores,
                        rows,
                        tables,
                        transactionRows,
                        relay.events(),
                        relay.seconds(),
                        relayRate,
                        relayMb,
                        relay.cpuSeconds() / relay.secondsWithStartup(),
                        relay.heapMaxUsed(),
                        relay.heapLimit(),
                        bareRate,
                        bare.cpuSeconds() / bare.seconds(),
                        relayRate / bareRate,
                        relay.secondsWithStartup(),
                        loadSeconds);
        System.out.println(json);
        Files.createDirectories(results.toAbsolutePath().getParent());
        Files.writeString(
                results,
                json + "\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
