package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.gridkit.goldengate.TrailFileWriter;
import io.changegrid.gridkit.goldengate.TrailOperation;
import io.changegrid.gridkit.goldengate.WorkloadTrailTables;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.WorkloadTables;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One workload, two sources, one row stream: grid-kit's load generator writes to a private MariaDB,
 * which a binlog relay reads; what that relay publishes is rendered, transaction by transaction, as
 * a GoldenGate JSON trail by grid-kit's {@link TrailFileWriter} (as GoldenGate's Extract and File
 * Writer would render the same changes), while a GoldenGate relay reads it. Both relays' consumers
 * see the same transactions with the same row images; only SCNs, transaction ids and table ids,
 * which each source numbers its own way, differ.
 */
class GoldenGateDifferentialIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final List<String> TABLES = List.of("orders", "payments");

    @TempDir Path work;

    @Test
    void shouldPublishTheSameRowStreamsWhenOneWorkloadIsReadFromTheBinlogAndFromAGoldenGateTrail()
            throws Exception {
        MARIADB.server().execute("CREATE DATABASE shop");
        LoadShape shape = new LoadShape(3_000, 400, TABLES.size(), OperationMix.DEFAULT, 4, 19);
        LoadGenerator load = new LoadGenerator(WorkloadTables.of("shop", TABLES), shape);
        try (Connection connection = MARIADB.server().connect("shop")) {
            load.createTables(connection);
        }
        Path trail = Files.createDirectories(work.resolve("dirout"));
        try (Relay binlog =
                        Relay.start(
                                RelayIT.config(MARIADB.server(), work.resolve("binlog"), 9_201));
                Relay goldengate = Relay.start(goldenGateConfig(trail, work.resolve("gg")));
                TrailFileWriter writer =
                        new TrailFileWriter(
                                TrailFileWriter.Options.in(trail)
                                        .withRolling(64 * 1024, Duration.ofMillis(300))
                                        .withSplitLines(true)
                                        .withTrail(3, 1L << 20))) {
            JsonStreamReader fromBinlog = new JsonStreamReader(new StreamClient(binlog.httpPort()));
            JsonStreamReader fromTrail =
                    new JsonStreamReader(new StreamClient(goldengate.httpPort()));
            AtomicReference<Throwable> renderFailure = new AtomicReference<>();
            LoadResult result;
            Thread renderer =
                    new Thread(
                            () -> render(fromBinlog, writer, renderFailure), "test-trail-renderer");
            renderer.start();
            try (Connection connection = MARIADB.server().connect("shop")) {
                result = load.run(connection, done -> {});
            }
            long events = result.events();
            renderer.join(
                    TimeUnit.SECONDS.toMillis(120)); // renders until every event is in the trail
            assertThat(renderFailure.get()).isNull();
            writer.roll(); // GoldenGate's inactivity roll: the last transaction is complete
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ZERO)
                    .until(() -> fromTrail.poll() >= events);
            assertThat(goldengate.failure()).isNull();
            assertThat(writer.finalizedFiles()).isGreaterThan(3);

            List<List<Map<String, Object>>> expected = comparable(fromBinlog.transactions());
            List<List<Map<String, Object>>> actual = comparable(fromTrail.transactions());
            assertThat(actual).hasSameSizeAs(expected);
            for (int i = 0; i < expected.size(); i++) {
                assertThat(actual.get(i)).as("transaction %d", i).isEqualTo(expected.get(i));
            }
            assertThat(expected.stream().mapToLong(List::size).sum()).isEqualTo(events);
        }
    }

    private static Config goldenGateConfig(Path trail, Path state) {
        List<String> tables = WorkloadTrailTables.declarations(WorkloadTables.of("shop", TABLES));
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("type", "goldengate");
        source.put("directory", trail.toString());
        source.put("tables", tables);
        source.put("heartbeatInterval", "200ms");
        source.put("pollInterval", "5ms");
        return RelaySettings.load(
                Map.of("source", source),
                Map.of(
                        "buffer.capacity", "64MiB",
                        "buffer.segmentSize", "4MiB",
                        "state.directory", state.toString(),
                        "http.port", "0"));
    }

    /** Renders the binlog relay's transactions into the trail until {@code events} rows are in. */
    private static void render(
            JsonStreamReader fromBinlog,
            TrailFileWriter writer,
            AtomicReference<Throwable> failure) {
        try {
            int rendered = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            long idleSince = System.nanoTime();
            while (System.nanoTime() < deadline) {
                fromBinlog.poll();
                List<List<Map<String, Object>>> transactions = fromBinlog.transactions();
                if (rendered == transactions.size()) {
                    // The load ends with no marker on the stream: stop once it has been quiet.
                    if (rendered > 0
                            && System.nanoTime() - idleSince > TimeUnit.SECONDS.toNanos(3)) {
                        return;
                    }
                    continue;
                }
                idleSince = System.nanoTime();
                for (; rendered < transactions.size(); rendered++) {
                    List<Map<String, Object>> transaction = transactions.get(rendered);
                    List<TrailOperation> operations = new ArrayList<>();
                    for (Map<String, Object> event : transaction) {
                        operations.add(operation(event));
                    }
                    Map<String, Object> first = transaction.get(0);
                    writer.write(
                            (String) first.get("txn"),
                            first.get("scn").toString(),
                            Instant.parse((String) first.get("commitTime")),
                            operations);
                }
            }
        } catch (Throwable e) {
            failure.set(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static TrailOperation operation(Map<String, Object> event) {
        String table = event.get("db") + "." + event.get("table");
        List<String> key = new ArrayList<>(((Map<String, Object>) event.get("key")).keySet());
        Map<String, Object> before = (Map<String, Object>) event.get("before");
        Map<String, Object> after = (Map<String, Object>) event.get("after");
        return switch ((String) event.get("op")) {
            case "INSERT" -> TrailOperation.insert(table, key, after);
            case "UPDATE" -> TrailOperation.update(table, key, before, after);
            case "DELETE" -> TrailOperation.delete(table, key, before);
            default -> throw new IllegalArgumentException("not a row event: " + event);
        };
    }

    /** The events without what each source numbers its own way. */
    private static List<List<Map<String, Object>>> comparable(
            List<List<Map<String, Object>>> transactions) {
        List<List<Map<String, Object>>> result = new ArrayList<>();
        for (List<Map<String, Object>> transaction : transactions) {
            List<Map<String, Object>> events = new ArrayList<>();
            for (Map<String, Object> event : transaction) {
                Map<String, Object> copy = new LinkedHashMap<>(event);
                copy.keySet().removeAll(List.of("scn", "txn", "tableId", "schemaVersion"));
                events.add(copy);
            }
            result.add(events);
        }
        return result;
    }
}
