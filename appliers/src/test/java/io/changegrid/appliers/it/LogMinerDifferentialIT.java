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
import io.changegrid.gridkit.logminer.LoadRedo;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same workload (grid-kit's load generator, one seed) run on a private MariaDB and, rendered
 * into LogMiner rows by grid-kit's {@link LoadRedo}, mined from the LogMiner stand-in: consumers of
 * the two relays get the same transactions, in the same order, each with the same row changes, the
 * before and after images equal value by value. What may differ, as in {@link
 * DifferentialSourcesIT}: SCNs, transaction ids, type names, the case of names (Oracle's upper
 * case), and the {@code updated} column each source fills with its own commit time.
 */
class LogMinerDifferentialIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final PostgresServerExtension ORACLE_STAND_IN = new PostgresServerExtension();

    private static final String NAMESPACE = "workload";
    private static final String OWNER = "WORKLOAD";
    private static final LoadShape SHAPE =
            new LoadShape(3_000, 400, 3, OperationMix.DEFAULT, 10, 20_261_126L);

    @org.junit.jupiter.api.io.TempDir Path work;

    @Test
    void shouldGiveConsumersTheSameRowStreamsWhenTheWorkloadIsMinedByLogMinerAndReadFromTheBinlog()
            throws Exception {
        List<String> names =
                IntStream.range(0, SHAPE.tables()).mapToObj(WorkloadTables::candidateName).toList();
        var load =
                new LoadGenerator(WorkloadTables.of(LoadDialect.MARIADB, NAMESPACE, names), SHAPE);
        MARIADB.server().execute("CREATE DATABASE " + NAMESPACE);
        try (Connection connection = MARIADB.server().connect()) {
            load.createTables(connection);
        }
        LogMinerStandIn standIn = LogMinerStandIn.create(ORACLE_STAND_IN.server(), "oracle");
        LoadRedo redo = new LoadRedo(OWNER, standIn.currentScn() + 1);
        redo.define(standIn, names);
        List<ChangeEvent> fromMariaDb = new CopyOnWriteArrayList<>();
        List<ChangeEvent> fromLogMiner = new CopyOnWriteArrayList<>();
        try (Relay mariaDbRelay =
                        Pipeline.startRelay(
                                MARIADB.server(), work.resolve("relay-mariadb"), 7_312);
                Relay logMinerRelay =
                        Pipeline.startLogMinerRelay(standIn, work.resolve("relay-logminer"));
                Consumer mariaDbConsumer =
                        RowStreams.collect(
                                mariaDbRelay,
                                NAMESPACE,
                                work.resolve("checkpoint-m"),
                                fromMariaDb);
                Consumer logMinerConsumer =
                        RowStreams.collect(
                                logMinerRelay, OWNER, work.resolve("checkpoint-o"), fromLogMiner)) {
            LoadResult result;
            try (Connection connection = MARIADB.server().connect()) {
                result = load.run(connection, done -> {});
            }
            int[] rendered = new int[1];
            load.forEachTransaction(
                    statements -> {
                        redo.transaction(statements);
                        if (++rendered[0] % 25 == 0) {
                            write(redo, standIn); // while the fetcher polls, in batches
                        }
                    });
            write(redo, standIn);
            assertThat((long) rendered[0]).isEqualTo(result.transactions());
            long expected = result.events();
            Pipeline.awaitUntil(
                    mariaDbConsumer, () -> fromMariaDb.size() >= expected, Duration.ofSeconds(60));
            Pipeline.awaitUntil(
                    logMinerConsumer,
                    () -> fromLogMiner.size() >= expected,
                    Duration.ofSeconds(60));
            List<List<String>> mariaDbStream = RowStreams.transactions(fromMariaDb, "updated");
            List<List<String>> logMinerStream = RowStreams.transactions(fromLogMiner, "updated");
            assertThat(mariaDbStream).hasSize((int) result.transactions());
            for (int t = 0; t < mariaDbStream.size(); t++) {
                assertThat(logMinerStream.get(t))
                        .as("transaction %d of %d", t, mariaDbStream.size())
                        .isEqualTo(mariaDbStream.get(t));
            }
            assertThat(logMinerStream).hasSameSizeAs(mariaDbStream);
        }
    }

    private static void write(LoadRedo redo, LogMinerStandIn standIn) {
        try {
            redo.write(standIn);
        } catch (SQLException e) {
            throw new IllegalStateException("writing LogMiner rows to the stand-in failed", e);
        }
    }
}
