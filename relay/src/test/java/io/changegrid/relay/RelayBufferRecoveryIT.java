package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.gridkit.load.LoadDialect;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.WorkloadTables;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.gridkit.server.FreePort;
import io.changegrid.testkit.MariaDbExtension;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay with a persistent mapped buffer is {@code kill -9}ed holding about 100 MB of frames (the
 * issue's 1 GB scaled to what {@code mvn verify} affords: grid-kit's load generator writing 40,000
 * row changes of 2 KB into a private MariaDB), then restarted: it serves the old SCNs at once, a
 * consumer reading from the oldest SCN gets every transaction exactly once and in order, and the
 * relay fetches only what the source logged after its last buffered transaction. A relay of another
 * source pointed at the same directory refuses to start.
 */
class RelayBufferRecoveryIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final String DATABASE = "workload";
    private static final LoadShape SHAPE =
            new LoadShape(40_000, 2_000, 2, OperationMix.DEFAULT, 20, 20_261_126L);
    private static final int ROWS_WHILE_DOWN = 100;
    private static final Pattern NUMBER = Pattern.compile("-?\\d+");

    @TempDir Path work;

    @Test
    void shouldServeItsBufferAtOnceAndFetchOnlyWhatFollowedWhenKilledAndRestarted()
            throws Exception {
        List<String> names =
                IntStream.range(0, SHAPE.tables()).mapToObj(WorkloadTables::candidateName).toList();
        LoadGenerator load =
                new LoadGenerator(WorkloadTables.of(LoadDialect.MARIADB, DATABASE, names), SHAPE);
        MARIADB.server().execute("CREATE DATABASE " + DATABASE);
        try (Connection connection = MARIADB.server().connect()) {
            load.createTables(connection);
        }
        MARIADB.server().execute("CREATE TABLE " + DATABASE + ".later (id INT PRIMARY KEY)");
        int port = FreePort.pick();
        Path config = writeConfig(port);
        Path log =
                Path.of(System.getProperty("java.io.tmpdir"), "changegrid-relay-recovery-it.log");
        Files.deleteIfExists(log);
        StreamClient client = new StreamClient(port);

        LoadResult written;
        long bufferBytes;
        long newestBefore;
        JavaProcess first = RelayJvm.start(config, log);
        try {
            awaitHealthy(client, first);
            try (Connection connection = MARIADB.server().connect()) {
                written = load.run(connection, done -> {});
            }
            awaitPublishedEvents(client, written.events());
            String status = client.getText("/v1/status").body();
            bufferBytes = number(status, "bytesUsed");
            newestBefore = number(status, "newestScn");
            first.kill();
        } finally {
            first.close();
        }
        assertThat(bufferBytes).as("the buffer held the load").isGreaterThan(64L << 20);
        insertLater(1, ROWS_WHILE_DOWN);

        try (JavaProcess second = RelayJvm.start(config, log)) {
            long startedNanos = System.nanoTime();
            long oldest = awaitServing(client, second, newestBefore);
            long servingMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
            awaitHealthy(client, second);

            Stream stream = readAll(client, oldest, written.events() + ROWS_WHILE_DOWN);
            assertThat(stream.rowEvents)
                    .as("every row change of the load and of the downtime, once")
                    .isEqualTo(written.events() + ROWS_WHILE_DOWN);
            assertThat(stream.transactions).isEqualTo(written.transactions() + ROWS_WHILE_DOWN);

            long fetchedEvents = publishedEvents(client);
            assertThat(fetchedEvents)
                    .as("fetched after the restart: only what followed the buffer")
                    .isEqualTo(ROWS_WHILE_DOWN);
            assertThat(Files.readString(log)).contains("event buffer recovered");
            System.out.printf(
                    "buffer recovery: bufferBytes=%d, loadEvents=%d, servingAfterStartMs=%d,"
                            + " eventsFetchedAfterRestart=%d%n",
                    bufferBytes, written.events(), servingMillis, fetchedEvents);
        }

        // The same directory under another source.id: refused, neither served nor overwritten.
        Files.writeString(
                config, Files.readString(config).replace("source:\n", "source:\n  id: 2\n"));
        try (JavaProcess foreign = RelayJvm.start(config, log)) {
            assertThat(foreign.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(foreign.process().exitValue()).isEqualTo(1);
        }
        assertThat(Files.readString(log))
                .contains("buffer file belongs to another source")
                .contains("fileSourceId=1, source.id=2");
    }

    private Path writeConfig(int port) throws Exception {
        Path config = work.resolve("relay.yaml");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "source:",
                        "  host: " + MARIADB.server().host(),
                        "  port: " + MARIADB.server().port(),
                        "  user: " + MARIADB.server().user(),
                        "  password: " + MARIADB.server().password(),
                        "  serverId: 9207",
                        "  heartbeatInterval: 200ms",
                        "capture:",
                        "  include: [" + DATABASE + ".*]",
                        "buffer:",
                        "  capacity: 192MiB",
                        "  segmentSize: 4MiB",
                        "  storage: mapped",
                        "  directory: " + work.resolve("buffer"),
                        "  persistent: true",
                        "state:",
                        "  directory: " + work.resolve("state"),
                        "http:",
                        "  port: " + port,
                        ""));
        return config;
    }

    private static void insertLater(int from, int to) throws Exception {
        try (Connection connection = MARIADB.server().connect();
                var statement = connection.createStatement()) {
            for (int id = from; id <= to; id++) {
                statement.execute("INSERT INTO " + DATABASE + ".later VALUES (" + id + ")");
            }
        }
    }

    /**
     * Waits until the restarted relay answers with its recovered buffer: at least the newest SCN it
     * had. Returns the SCN a consumer reading "from the oldest" starts after.
     */
    private static long awaitServing(StreamClient client, JavaProcess relay, long newestBefore) {
        long[] floor = new long[1];
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(20, TimeUnit.MILLISECONDS)
                .ignoreExceptions()
                .until(
                        () -> {
                            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
                            String status = client.getText("/v1/status").body();
                            floor[0] = number(status, "highestEvictedScn");
                            return number(status, "newestScn") >= newestBefore;
                        });
        return floor[0];
    }

    /** What a consumer reading from {@code checkpoint} on gets, checked frame by frame. */
    private static Stream readAll(StreamClient client, long checkpoint, long rowEvents)
            throws Exception {
        Stream stream = new Stream();
        long from = checkpoint;
        long lastTransactionScn = checkpoint;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (stream.rowEvents < rowEvents && System.nanoTime() < deadline) {
            HttpResponse<byte[]> response =
                    client.get("/v1/stream?from=" + from + "&timeoutMs=500&maxBytes=8388608");
            assertThat(response.statusCode()).as("stream from %d", from).isEqualTo(200);
            for (StreamClient.Frame frame : StreamClient.frames(response.body())) {
                if (frame.operationCode() == Operation.END_OF_TRANSACTION.code()) {
                    assertThat(frame.scn())
                            .as("transactions in SCN order, none twice")
                            .isGreaterThan(lastTransactionScn);
                    lastTransactionScn = frame.scn();
                    stream.transactions++;
                } else if (frame.operationCode() == Operation.INSERT.code()
                        || frame.operationCode() == Operation.UPDATE.code()
                        || frame.operationCode() == Operation.DELETE.code()) {
                    stream.rowEvents++;
                }
            }
            from = StreamClient.lastScn(response);
        }
        return stream;
    }

    private static final class Stream {
        long rowEvents;
        long transactions;
    }

    private static void awaitHealthy(StreamClient client, JavaProcess relay) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(120))
                .pollInterval(100, TimeUnit.MILLISECONDS)
                .ignoreExceptions()
                .until(
                        () -> {
                            assertThat(relay.isAlive()).as(relay.logTail()).isTrue();
                            return client.getText("/v1/health").statusCode() == 200;
                        });
    }

    private static void awaitPublishedEvents(StreamClient client, long events) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(180))
                .pollInterval(200, TimeUnit.MILLISECONDS)
                .until(() -> publishedEvents(client) >= events);
    }

    private static long publishedEvents(StreamClient client) throws Exception {
        return (long)
                client.getText("/metrics")
                        .body()
                        .lines()
                        .filter(l -> l.startsWith("changegrid_relay_published_events_total"))
                        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                        .sum();
    }

    /** The number after {@code "field":} in a JSON text. */
    private static long number(String json, String field) {
        int at = json.indexOf("\"" + field + "\":");
        assertThat(at).as("%s in %s", field, json).isNotNegative();
        Matcher matcher = NUMBER.matcher(json);
        assertThat(matcher.find(at + field.length() + 3)).isTrue();
        return Long.parseLong(matcher.group());
    }
}
