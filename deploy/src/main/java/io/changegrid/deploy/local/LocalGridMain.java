package io.changegrid.deploy.local;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.config.Config;
import io.changegrid.config.ValueReference;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerStatus;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.consumer.sink.JsonLinesFileCallback;
import io.changegrid.consumer.sink.SnapshotCountingCallback;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.PacedLoad;
import io.changegrid.relay.Relay;
import io.changegrid.relay.RelayMain;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.http.RelayStatus;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The quickstart: a whole grid on this machine with no setup. A private MariaDB with a binlog (the
 * installed server, own data directory, free port) or, with {@code --source-type postgresql}, a
 * private PostgreSQL with logical decoding, a relay reading it, a consumer, and a small shop
 * workload; live progress every second, a summary at the end, and a clean stop on Ctrl-C.
 *
 * <p>The source gets {@code --seed-rows} rows before the relay and the consumer start, and the
 * consumer starts with {@code start: snapshot} (docs/bootstrap.md): it copies those rows in chunks
 * beside the live demo load, then goes on with the live stream alone. The run is caught up only
 * once the snapshot completed.
 *
 * <p>The consumer applies the shop's tables into PostgreSQL with the JDBC applier when the server
 * of {@code --target} answers (a database of the quickstart's own, made anew at each start), and
 * the summary compares row counts of source and target; otherwise, or with {@code --target none},
 * it writes every event as a JSON line to a file, as the first grid did.
 */
@Command(
        name = "local-grid",
        mixinStandardHelpOptions = true,
        description =
                "Runs a local grid: private MariaDB source, relay, consumer applying into PostgreSQL (or"
                        + " writing JSON lines), demo load.")
public final class LocalGridMain implements java.util.concurrent.Callable<Integer> {

    @Option(
            names = "--dir",
            description = "Where the grid keeps its files. Default: ${DEFAULT-VALUE}.")
    Path directory = Path.of("local-grid");

    @Option(
            names = "--transactions",
            description = "Demo transactions to commit. Default: ${DEFAULT-VALUE}.")
    long transactions = 3_000;

    @Option(
            names = "--rate",
            description = "Demo transactions per second. Default: ${DEFAULT-VALUE}.")
    int rate = 200;

    @Option(
            names = "--seed-rows",
            description =
                    "Rows the source gets before the relay and the consumer start; the consumer"
                            + " copies them with a snapshot. Default: ${DEFAULT-VALUE}.")
    long seedRows = 3_000;

    @Option(
            names = "--source-type",
            description =
                    "mysql: a private MariaDB with a binlog (or --source); postgresql: a private"
                            + " PostgreSQL with logical decoding (the installed server, run as the"
                            + " postgres OS user). Default: ${DEFAULT-VALUE}.")
    String sourceType = "mysql";

    @Option(
            names = "--source",
            description =
                    "Use this MySQL/MariaDB (host:port, binlog ROW) instead of a private one; the demo"
                            + " load writes to its database shop.")
    String source;

    @Option(
            names = "--source-user",
            description =
                    "User for --source: replication privileges and rights on"
                            + " database shop. Default: ${DEFAULT-VALUE}.")
    String sourceUser = "root";

    @Option(
            names = "--source-password",
            description =
                    "Password of --source-user, best as a $${env:NAME} or $${file:/path} reference"
                            + " (a literal is visible in ps). Default: environment variable"
                            + " CHANGEGRID_SOURCE_PASSWORD, else empty.",
            defaultValue = "${env:CHANGEGRID_SOURCE_PASSWORD:-}",
            interactive = false)
    String sourcePassword = "";

    @Option(
            names = "--http-port",
            description = "The relay's HTTP port (0: any free). Default: ${DEFAULT-VALUE}.")
    int httpPort = 7070;

    @Option(
            names = "--console-port",
            description =
                    "Port of the web console showing the grid (0: any free; -1: no console)."
                            + " Default: ${DEFAULT-VALUE}.")
    int consolePort = 7080;

    @Option(
            names = "--target",
            description =
                    "PostgreSQL database the consumer applies the shop's tables into, made anew at"
                            + " start (jdbc:postgresql://host:port/database), or none for JSON lines."
                            + " Unreachable: JSON lines. Default: ${DEFAULT-VALUE}.")
    String target = QuickstartTarget.DEFAULT_URL;

    @Option(
            names = "--target-user",
            description =
                    "User for --target, allowed to create databases. Default: ${DEFAULT-VALUE}.")
    String targetUser = "postgres";

    @Option(
            names = "--target-password",
            description =
                    "Password of --target-user, best as a $${env:NAME} or $${file:/path} reference"
                            + " (a literal is visible in ps). Default: environment variable"
                            + " CHANGEGRID_TARGET_PASSWORD, else empty.",
            defaultValue = "${env:CHANGEGRID_TARGET_PASSWORD:-}",
            interactive = false)
    String targetPassword = "";

    private static final List<String> DEMO_TABLES =
            List.of("shop.customers", "shop.orders", "shop.order_items");

    private final PrintStream out = System.out;
    private final CountDownLatch interrupted = new CountDownLatch(1);
    private volatile boolean finished;

    public static void main(String[] args) {
        RelayMain.routeJavaUtilLogging();
        System.exit(new CommandLine(new LocalGridMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Optional<QuickstartTarget> wanted;
        try {
            wanted =
                    QuickstartTarget.parse(
                            target,
                            targetUser,
                            ValueReference.resolveOption("--target-password", targetPassword));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        Files.createDirectories(directory);
        int exit = 0;
        Path events = directory.resolve("events.jsonl");
        Path checkpoint = directory.resolve("consumer.checkpoint");
        Path relayState = directory.resolve("relay-state");
        // A fresh private source each run: state from an earlier run would name another server.
        deleteRecursively(relayState);
        Files.deleteIfExists(events);
        Files.deleteIfExists(checkpoint);
        Runtime.getRuntime().addShutdownHook(new Thread(this::onInterrupt, "local-grid-stop"));

        boolean postgresSource;
        switch (sourceType) {
            case "mysql" -> postgresSource = false;
            case "postgresql" -> {
                if (source != null) {
                    System.err.println(
                            "--source is a MySQL/MariaDB server: with --source-type postgresql the"
                                    + " quickstart starts its own PostgreSQL; value="
                                    + source);
                    return 2;
                }
                postgresSource = true;
            }
            default -> {
                System.err.println(
                        "--source-type must be mysql or postgresql: value=" + sourceType);
                return 2;
            }
        }
        out.printf(
                "changegrid local grid: starting a private %s, a relay, a consumer and a demo load%n",
                postgresSource ? "PostgreSQL" : "MariaDB");
        try (LocalSource localSource =
                        postgresSource
                                ? LocalSource.postgres()
                                : LocalSource.mariaDb(
                                        source == null
                                                ? null
                                                : SourceAddress.parse(
                                                        source,
                                                        sourceUser,
                                                        ValueReference.resolveOption(
                                                                "--source-password",
                                                                sourcePassword)));
                Connection load = localSource.connect();
                LocalConsole console = consolePort < 0 ? null : LocalConsole.start(consolePort)) {
            DemoLoad.createSchema(load, localSource.dialect());
            out.printf("  source   %s%n", localSource.description());
            LoadResult seeded = DemoLoad.seed(load, localSource.dialect(), seedRows);
            out.printf(
                    "  seeded   %,d rows in shop.* before the grid started (%.1f s)%n",
                    seeded.inserts(), seeded.seconds());
            QuickstartTarget database = wanted.flatMap(this::reachable).orElse(null);
            Relay relay =
                    Relay.start(
                            relayConfig(
                                    localSource,
                                    relayState,
                                    console == null ? null : console.zooKeeper()));
            JdbcApplier applier = database == null ? null : JdbcApplier.open(options(database));
            try (JsonLinesFileCallback sink =
                    applier == null ? new JsonLinesFileCallback(events) : null) {
                String relayUrl = "http://127.0.0.1:" + relay.httpPort();
                out.printf("  relay    %s/v1/status%n", relayUrl);
                if (console != null) {
                    out.printf("  console  %s%n", console.url());
                }
                SnapshotCountingCallback callback =
                        new SnapshotCountingCallback(applier != null ? applier : sink);
                CheckpointStore store =
                        applier != null
                                ? applier.checkpointStore()
                                : new FileCheckpointStore(checkpoint);
                Consumer consumer =
                        Consumer.builder()
                                .name("local-consumer")
                                .relays(relayUrl)
                                .set(ConsumerSettings.START.path(), "snapshot")
                                .callback(callback)
                                .checkpointStore(store)
                                .build();
                consumer.start();
                if (applier != null) {
                    out.printf(
                            "  consumer applies into PostgreSQL %s (schema shop), exactly once%n%n",
                            database.url());
                } else {
                    out.printf("  consumer JSON lines to %s%n%n", events.toAbsolutePath());
                }
                out.println(
                        "  the consumer starts with a snapshot: the rows that exist, in chunks"
                                + " beside the live load, then the live stream");
                PacedLoad demo = DemoLoad.start(load, localSource.dialect(), transactions, rate);
                boolean caughtUp = false;
                try {
                    caughtUp = progress(demo, relay, consumer, callback);
                } finally {
                    demo.close();
                    consumer.stop();
                    consumer.awaitTermination(Duration.ofSeconds(10));
                    consumer.close();
                    boolean agree =
                            applier != null
                                    ? targetSummary(
                                            demo,
                                            callback,
                                            consumer,
                                            applier,
                                            database,
                                            load,
                                            postgresSource)
                                    : summary(demo, callback, consumer, events);
                    where(consumer, applier, database, events, relayUrl);
                    relay.close();
                    // A finished run whose target differs from the source is a failure.
                    exit = caughtUp && !agree ? 1 : 0;
                }
            } finally {
                if (applier != null) {
                    applier.close();
                }
            }
        } finally {
            finished = true;
        }
        return exit;
    }

    /**
     * The target the quickstart applies into, made anew, if its server answers; otherwise says in
     * one line that the grid writes JSON lines instead.
     */
    private Optional<QuickstartTarget> reachable(QuickstartTarget database) {
        try {
            database.recreate();
            return Optional.of(database);
        } catch (SQLException e) {
            out.printf(
                    "  target   PostgreSQL at %s not reachable (%s): writing JSON lines instead%n",
                    database.server(), e.getMessage());
            return Optional.empty();
        }
    }

    private static ApplierOptions options(QuickstartTarget database) {
        return ApplierOptions.builder(database.url())
                .credentials(
                        database.user(), database.password().isEmpty() ? null : database.password())
                .consumerGroup("local-grid")
                .build();
    }

    /**
     * Prints progress every second; true once the consumer completed its snapshot and caught up
     * with the finished load.
     */
    private boolean progress(
            PacedLoad demo, Relay relay, Consumer consumer, SnapshotCountingCallback snapshot)
            throws Exception {
        long startNanos = System.nanoTime();
        boolean toldComplete = false;
        long lastEvents = 0;
        long lastNanos = startNanos;
        while (interrupted.getCount() > 0) {
            interrupted.await(1, TimeUnit.SECONDS);
            RelayStatus relayStatus = relay.status();
            ConsumerStatus consumerStatus = consumer.status();
            long now = System.nanoTime();
            long delivered = consumerStatus.eventsDelivered();
            double rate = (delivered - lastEvents) / ((now - lastNanos) / 1e9);
            lastEvents = delivered;
            lastNanos = now;
            // A consumer that has everything its relay holds is as far behind as the relay, whose
            // lag is read on the best clock the source offers (docs/operations.md); otherwise its
            // checkpoint's commit time, in whole seconds on MariaDB, is all it knows.
            boolean current =
                    relayStatus.lagClock() != null
                            && consumerStatus.checkpointScn() >= relayStatus.newestScn();
            out.printf(
                    "%5.0fs  source %,7d txns  relay %,7d published  consumer %,8d events %,7.0f/s  lag %,5d ms (%s)  %s%n",
                    (now - startNanos) / 1e9,
                    demo.committedTransactions(),
                    relayStatus.transactionsAppended(),
                    delivered,
                    rate,
                    Math.max(0, current ? relayStatus.lagMillis() : consumerStatus.lagMillis()),
                    current ? relayStatus.lagClock() : "commit-time",
                    consumerStatus.state());
            if (demo.failure().isPresent()) {
                throw new IllegalStateException("demo load failed", demo.failure().get());
            }
            if (consumer.failure().isPresent()) {
                throw consumer.failure().get();
            }
            if (snapshot.snapshotComplete() && !toldComplete) {
                toldComplete = true;
                out.printf(
                        "       snapshot complete: %,d rows copied in %.1f s; live stream only from"
                                + " here%n",
                        snapshot.snapshotRows(), (snapshot.completedNanos() - startNanos) / 1e9);
            }
            boolean caughtUp =
                    snapshot.snapshotComplete()
                            && !demo.isRunning()
                            && consumerStatus.checkpointScn() >= relay.buffer().newestScn()
                            && relayStatus.lastPublishedScn() >= 0;
            if (caughtUp) {
                return true;
            }
        }
        out.println("interrupted: stopping cleanly");
        return false;
    }

    /** Rows per target table against the source's; true when every count agrees. */
    private boolean targetSummary(
            PacedLoad demo,
            SnapshotCountingCallback snapshot,
            Consumer consumer,
            JdbcApplier applier,
            QuickstartTarget database,
            Connection source,
            boolean sourceIsPostgres)
            throws SQLException {
        ConsumerStatus status = consumer.status();
        out.printf(
                "%nreplicated: %,d source transactions -> %,d row writes in %,d target commits"
                        + " (%,d events in %,d transactions delivered)%n",
                demo.committedTransactions(),
                applier.rowsApplied(),
                applier.commits(),
                status.eventsDelivered(),
                status.transactionsDelivered());
        printSnapshot(snapshot);
        try (Connection target = database.connect()) {
            return RowCountCheck.print(
                    out, RowCountCheck.count(source, sourceIsPostgres, target, DEMO_TABLES));
        }
    }

    /** Events per table and operation, read back from the JSON lines file. */
    private boolean summary(
            PacedLoad demo, SnapshotCountingCallback snapshot, Consumer consumer, Path events)
            throws IOException {
        Map<String, Map<String, Long>> perTable = new TreeMap<>();
        Pattern line =
                Pattern.compile("\"op\":\"(\\w+)\".*?\"db\":\"(\\w+)\",\"table\":\"(\\w+)\"");
        try (Stream<String> lines = Files.lines(events)) {
            lines.forEach(
                    text -> {
                        Matcher m = line.matcher(text);
                        if (m.find()) {
                            perTable.computeIfAbsent(
                                            m.group(2) + "." + m.group(3), k -> new TreeMap<>())
                                    .merge(m.group(1), 1L, Long::sum);
                        }
                    });
        }
        ConsumerStatus status = consumer.status();
        out.printf(
                "%nreplicated: %,d source transactions -> %,d events delivered in %,d transactions%n",
                demo.committedTransactions(),
                status.eventsDelivered(),
                status.transactionsDelivered());
        printSnapshot(snapshot);
        perTable.forEach((table, ops) -> out.printf("  %-20s %s%n", table, ops));
        return true;
    }

    private void printSnapshot(SnapshotCountingCallback snapshot) {
        out.printf(
                "snapshot: %,d rows that existed before the grid started copied as snapshot rows"
                        + " (%s), %,d live events%n",
                snapshot.snapshotRows(),
                snapshot.snapshotComplete() ? "complete" : "NOT complete",
                snapshot.liveEvents());
    }

    private void where(
            Consumer consumer,
            JdbcApplier applier,
            QuickstartTarget database,
            Path events,
            String relayUrl) {
        out.println("where to look:");
        if (applier != null) {
            out.printf(
                    "  target     psql -h %s -U %s %s   (tables shop.*)%n"
                            + "  checkpoint table public.changegrid_checkpoint there (SCN %d, in the"
                            + " same transactions as the rows)%n",
                    database.server().replaceFirst(":(\\d+)$", " -p $1"),
                    database.user(),
                    database.database(),
                    consumer.status().checkpointScn());
        } else {
            out.printf(
                    "  events     %s (one JSON event per line)%n  checkpoint %s (SCN %d)%n",
                    events.toAbsolutePath(),
                    directory.resolve("consumer.checkpoint").toAbsolutePath(),
                    consumer.status().checkpointScn());
        }
        out.printf(
                "  relay      %s/v1/status while it runs; its state in %s%n",
                relayUrl, directory.resolve("relay-state").toAbsolutePath());
    }

    private Config relayConfig(LocalSource source, Path state, String zooKeeper) {
        Map<String, String> settings = new HashMap<>(source.relaySettings());
        if (zooKeeper != null) {
            settings.put("cluster.zookeeper", zooKeeper); // registers, so the console finds it
        }
        settings.put("source.heartbeatInterval", "500ms");
        settings.put("capture.include", "shop.*");
        settings.put("buffer.capacity", "64MiB");
        settings.put("buffer.segmentSize", "4MiB");
        settings.put("state.directory", state.toString());
        settings.put("http.port", Integer.toString(httpPort));
        return RelaySettings.load(Map.of(), settings);
    }

    private void onInterrupt() {
        interrupted.countDown();
        // Give the main thread the time to stop everything and print its summary.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!finished && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path each : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }
}
