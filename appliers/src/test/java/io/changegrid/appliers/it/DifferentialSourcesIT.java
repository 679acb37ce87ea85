package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.Consumer;
import io.changegrid.events.ChangeEvent;
import io.changegrid.gridkit.load.LoadDialect;
import io.changegrid.gridkit.load.LoadGenerator;
import io.changegrid.gridkit.load.LoadResult;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import io.changegrid.gridkit.load.WorkloadTables;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same workload (grid-kit's load generator, one seed) on a private MariaDB and a private
 * PostgreSQL: consumers of the two relays get the same transactions, in the same order, each with
 * the same row changes, before and after images equal value by value. What may differ: SCNs,
 * transaction ids, source type names, and the {@code updated} column, which each server fills with
 * its own commit time.
 */
class DifferentialSourcesIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final String NAMESPACE = "workload";
    private static final LoadShape SHAPE =
            new LoadShape(3_000, 400, 3, OperationMix.DEFAULT, 10, 20_261_126L);

    @TempDir Path work;

    @Test
    void shouldGiveConsumersTheSameRowStreamsWhenTheSameWorkloadRunsOnBothSources()
            throws Exception {
        List<String> names =
                IntStream.range(0, SHAPE.tables()).mapToObj(WorkloadTables::candidateName).toList();
        var mariaDbLoad =
                new LoadGenerator(WorkloadTables.of(LoadDialect.MARIADB, NAMESPACE, names), SHAPE);
        var postgresLoad =
                new LoadGenerator(
                        WorkloadTables.of(LoadDialect.POSTGRESQL, NAMESPACE, names), SHAPE);
        MARIADB.server().execute("CREATE DATABASE " + NAMESPACE);
        try (Connection connection = MARIADB.server().connect()) {
            mariaDbLoad.createTables(connection);
        }
        POSTGRES.server().createDatabase("src");
        try (Connection connection = POSTGRES.server().connect("src")) {
            postgresLoad.createTables(connection);
        }
        List<ChangeEvent> fromMariaDb = new CopyOnWriteArrayList<>();
        List<ChangeEvent> fromPostgres = new CopyOnWriteArrayList<>();
        try (Relay mariaDbRelay =
                        Pipeline.startRelay(
                                MARIADB.server(), work.resolve("relay-mariadb"), 7_311);
                Relay postgresRelay =
                        Pipeline.startPostgresRelay(
                                POSTGRES.server(),
                                "src",
                                "differential",
                                work.resolve("relay-pg"));
                Consumer mariaDbConsumer = collect(mariaDbRelay, "mariadb", fromMariaDb);
                Consumer postgresConsumer = collect(postgresRelay, "postgres", fromPostgres)) {
            LoadResult mariaDbResult;
            try (Connection connection = MARIADB.server().connect()) {
                mariaDbResult = mariaDbLoad.run(connection, done -> {});
            }
            LoadResult postgresResult;
            try (Connection connection = POSTGRES.server().connect("src")) {
                postgresResult = postgresLoad.run(connection, done -> {});
            }
            assertThat(postgresResult.events()).isEqualTo(mariaDbResult.events());
            assertThat(postgresResult.transactions()).isEqualTo(mariaDbResult.transactions());
            long expected = mariaDbResult.events();
            Pipeline.awaitUntil(
                    mariaDbConsumer, () -> fromMariaDb.size() >= expected, Duration.ofSeconds(60));
            Pipeline.awaitUntil(
                    postgresConsumer,
                    () -> fromPostgres.size() >= expected,
                    Duration.ofSeconds(60));
            List<List<String>> mariaDbStream = RowStreams.transactions(fromMariaDb, "updated");
            List<List<String>> postgresStream = RowStreams.transactions(fromPostgres, "updated");
            assertThat(mariaDbStream).hasSize((int) mariaDbResult.transactions());
            for (int t = 0; t < mariaDbStream.size(); t++) {
                assertThat(postgresStream.get(t))
                        .as("transaction %d of %d", t, mariaDbStream.size())
                        .isEqualTo(mariaDbStream.get(t));
            }
            assertThat(postgresStream).hasSameSizeAs(mariaDbStream);
        }
    }

    private Consumer collect(Relay relay, String name, List<ChangeEvent> events) throws Exception {
        return RowStreams.collect(relay, NAMESPACE, work.resolve("checkpoint-" + name), events);
    }
}
