package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.config.Config;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.gridkit.goldengate.TrailFileWriter;
import io.changegrid.gridkit.goldengate.TrailOperation;
import io.changegrid.gridkit.goldengate.WorkloadTrailTables;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.WorkloadTables;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential test, applier side: one workload on a private MariaDB, read by a binlog
 * relay and, as a GoldenGate JSON trail, by a GoldenGate relay; each relay's stream is applied by
 * the JDBC applier into its own schema of one fresh PostgreSQL test database ({@code shop_binlog},
 * {@code shop_goldengate}); the two schemas' tables end with equal checksums, and equal to the
 * source's tables.
 *
 * <p><b>What is independent and what is not.</b> GoldenGate cannot run here, so the trail is not
 * GoldenGate's: a consumer of the binlog relay renders each transaction it receives, row images as
 * the binlog fetcher decoded them, into JSON formatter files through grid-kit's {@link
 * TrailFileWriter} while the GoldenGate relay reads them. So the row values in the trail are the
 * binlog fetcher's, not an independent capture: a value the binlog fetcher decoded wrongly would be
 * wrong in both schemas alike, and the two-schema comparison alone could not see it. What is
 * independent of the binlog path is everything after the files: the GoldenGate fetcher's file
 * following (rolls and renames while written, partial last lines), its JSON parsing and typing from
 * the relay's {@code source.tables} declarations (not from MariaDB's schema), its transaction
 * boundaries and SCNs, the second relay, consumer and applier, and the tables PostgreSQL created
 * from each relay's schema. To catch what both paths share, both schemas are also compared with the
 * source's tables, read over JDBC from MariaDB itself, in a canonical text per column.
 */
class GoldenGateApplierIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final List<String> TABLES = List.of("orders", "payments");

    /**
     * The workload's columns (grid-kit's WorkloadTables), each in a text both databases agree on.
     */
    private static final List<Spec> COLUMNS = columns();

    @TempDir Path work;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    @Test
    void shouldEndWithEqualChecksumsWhenTheBinlogAndTheGoldenGateStreamsAreApplied()
            throws Exception {
        long seed = Long.getLong("changegrid.seed", 19);
        System.out.println("seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        SOURCE.server().execute("CREATE DATABASE shop");
        WorkloadTables tables = WorkloadTables.of("shop", TABLES);
        LoadShape shape = new LoadShape(3_000, 400, TABLES.size(), OperationMix.DEFAULT, 4, seed);
        LoadGenerator load = new LoadGenerator(tables, shape);
        try (Connection connection = SOURCE.server().connect("shop")) {
            load.createTables(connection);
        }
        Path trail = Files.createDirectories(work.resolve("dirout"));
        Relay binlog = Pipeline.startRelay(SOURCE.server(), work.resolve("binlog"), 9_811);
        closing.add(binlog::close);
        Relay goldengate = Relay.start(goldenGateConfig(tables, trail, work.resolve("gg")));
        closing.add(goldengate::close);
        TrailFileWriter writer =
                new TrailFileWriter(
                        TrailFileWriter.Options.in(trail)
                                .withRolling(64 * 1024, Duration.ofMillis(300))
                                .withSplitLines(true)
                                .withTrail(3, 1L << 20));
        closing.add(writer);
        TrailRenderer renderer = new TrailRenderer(writer);
        Consumer rendering =
                start(
                        Consumer.builder()
                                .name("trail-renderer")
                                .relays(Pipeline.url(binlog))
                                .subscription(Subscription.tables("shop.*"))
                                .pollTimeout(Duration.ofSeconds(2))
                                .batching(50, Duration.ofMillis(20))
                                .callback(renderer)
                                .checkpointStore(
                                        new FileCheckpointStore(work.resolve("renderer.scn"))));
        closing.add(rendering);

        Target target = Target.of(POSTGRES.database());
        Consumer fromBinlog = apply(binlog, target, "shop_binlog");
        Consumer fromTrail = apply(goldengate, target, "shop_goldengate");

        LoadResult result;
        try (Connection connection = SOURCE.server().connect("shop")) {
            result = load.run(connection, done -> {});
        }
        Pipeline.awaitUntil(
                rendering, () -> renderer.rows() >= result.events(), Duration.ofSeconds(60));
        writer.roll(); // GoldenGate's inactivity roll: the last transaction in the trail is
        // complete
        assertThat(writer.finalizedFiles()).isGreaterThan(3);

        for (String table : TABLES) {
            List<String> source;
            try (Connection connection = SOURCE.server().connect()) {
                source = TableContents.rows(connection, "shop." + table, COLUMNS, false);
            }
            assertThat(source).isNotEmpty();
            List<String> viaBinlog = awaitRows(fromBinlog, target, "shop_binlog", table, source);
            List<String> viaTrail = awaitRows(fromTrail, target, "shop_goldengate", table, source);
            assertThat(TableContents.checksum(viaTrail))
                    .as("checksum of %s applied from the GoldenGate relay", table)
                    .isEqualTo(TableContents.checksum(viaBinlog))
                    .isEqualTo(TableContents.checksum(source));
        }
        assertThat(goldengate.failure()).isNull();
    }

    private Consumer apply(Relay relay, Target target, String schema) throws Exception {
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(schema)
                                .targetNamespace(schema)
                                .maxRows(500)
                                .build());
        closing.add(applier);
        Consumer consumer = Pipeline.consume(relay, "shop", applier, applier.checkpointStore(), 25);
        closing.add(consumer);
        return consumer;
    }

    private static Consumer start(Consumer.Builder builder) throws IOException {
        Consumer consumer = builder.build();
        consumer.start();
        return consumer;
    }

    /** The target table's rows once they equal the source's, or an error saying how they differ. */
    private static List<String> awaitRows(
            Consumer consumer, Target target, String schema, String table, List<String> source) {
        AtomicLong attempts = new AtomicLong();
        List<List<String>> last = new ArrayList<>(List.of(List.of()));
        try {
            Pipeline.awaitUntil(
                    consumer,
                    () -> {
                        attempts.incrementAndGet();
                        try (Connection connection = target.connect()) {
                            last.set(
                                    0,
                                    TableContents.rows(
                                            connection,
                                            target.table(schema, table),
                                            COLUMNS,
                                            true));
                            return last.get(0).equals(source);
                        } catch (SQLException e) {
                            return false; // the applier has not created the table yet
                        }
                    },
                    Duration.ofSeconds(60));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            List<String> missing = new ArrayList<>(source);
            missing.removeAll(last.get(0));
            List<String> extra = new ArrayList<>(last.get(0));
            extra.removeAll(source);
            throw new AssertionError(
                    "target differs from the source: table="
                            + schema
                            + "."
                            + table
                            + ", missing="
                            + missing.size()
                            + ", extra="
                            + extra.size()
                            + (missing.isEmpty() ? "" : ", first missing: " + missing.get(0))
                            + (extra.isEmpty() ? "" : ", first extra: " + extra.get(0)),
                    e);
        }
        return last.get(0);
    }

    private static Config goldenGateConfig(WorkloadTables tables, Path trail, Path state) {
        Map<String, Object> source = new LinkedHashMap<>();
        source.put("type", "goldengate");
        source.put("directory", trail.toString());
        source.put("tables", WorkloadTrailTables.declarations(tables));
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

    private static List<Spec> columns() {
        List<Spec> columns = new ArrayList<>();
        for (String name :
                List.of("id", "account", "quantity", "amount", "status", "code", "name")) {
            columns.add(Spec.of(name, Canon.TEXT));
        }
        columns.add(Spec.of("created", Canon.DATETIME));
        columns.add(Spec.of("updated", Canon.TIMESTAMP));
        for (int c = 1; c <= 5; c++) {
            columns.add(Spec.of("note" + c, Canon.TEXT));
        }
        return List.copyOf(columns);
    }

    /**
     * Renders each transaction the binlog relay delivers into the trail, whole, at its end: row
     * images as the binlog fetcher decoded them, key columns from the relay's schema, the binlog
     * transaction id and SCN as the TK-XID and TK-CSN tokens. Runs on its consumer's dispatcher
     * thread; {@link #rows()} may be read from another.
     */
    private static final class TrailRenderer implements ConsumerCallback {

        private final TrailFileWriter writer;
        private final List<TrailOperation> operations = new ArrayList<>();
        private final AtomicLong rows = new AtomicLong();

        TrailRenderer(TrailFileWriter writer) {
            this.writer = writer;
        }

        long rows() {
            return rows.get();
        }

        @Override
        public CallbackResult onStartTransaction(TransactionInfo transaction) {
            operations.clear();
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onEvent(EventView event) {
            TableSchema schema = event.schema();
            String table = event.database() + "." + event.table();
            List<String> key = schema.keyColumns();
            switch (event.operation()) {
                case INSERT ->
                        operations.add(
                                TrailOperation.insert(table, key, image(schema, event.after())));
                case UPDATE ->
                        operations.add(
                                TrailOperation.update(
                                        table,
                                        key,
                                        image(schema, event.before()),
                                        image(schema, event.after())));
                case DELETE ->
                        operations.add(
                                TrailOperation.delete(table, key, image(schema, event.before())));
                default -> {} // schema changes: the GoldenGate relay's tables are declared
            }
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onEndTransaction(TransactionInfo transaction) {
            if (operations.isEmpty()) {
                return CallbackResult.SUCCESS;
            }
            long micros = transaction.commitTimeMicros();
            try {
                writer.write(
                        transaction.transactionId(),
                        Long.toString(transaction.scn()),
                        Instant.ofEpochSecond(micros / 1_000_000, micros % 1_000_000 * 1_000),
                        List.copyOf(operations));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "rendering into the trail failed: scn=" + transaction.scn(), e);
            }
            rows.addAndGet(operations.size());
            return CallbackResult.SUCCESS;
        }

        private static Map<String, Object> image(TableSchema schema, Object[] values) {
            Map<String, Object> image = new LinkedHashMap<>();
            for (int i = 0; i < values.length; i++) {
                image.put(schema.column(i).name(), values[i]);
            }
            return image;
        }
    }
}
