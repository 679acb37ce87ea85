package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Micro-batched apply on four lanes keeps every key's changes in source order under a skewed key
 * distribution, with every lane router: a target trigger rejects any update that does not raise a
 * row's sequence number, so one out-of-order write fails the consumer. The barriers each router
 * needed are counted: none with {@code key}, some with the others.
 */
class MicroBatchIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @TempDir static Path relayState;

    private static Relay relay;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startRelay() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_803);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private JdbcApplier microBatched(String database, LaneRouter router) throws Exception {
        Target target = Target.of(POSTGRES.database());
        target.execute(
                "CREATE SCHEMA " + database,
                "CREATE TABLE "
                        + database
                        + ".seq (k integer PRIMARY KEY, n integer, customer integer)",
                "CREATE FUNCTION "
                        + database
                        + ".in_order() RETURNS trigger AS $$ BEGIN IF NEW.n <= OLD.n THEN"
                        + " RAISE EXCEPTION 'out of order: k=%, old=%, new=%', OLD.k, OLD.n, NEW.n;"
                        + " END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER in_order BEFORE UPDATE ON "
                        + database
                        + ".seq FOR EACH ROW EXECUTE FUNCTION "
                        + database
                        + ".in_order()");
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + database,
                        "CREATE TABLE "
                                + database
                                + ".seq (k INT PRIMARY KEY, n INT, customer INT)");
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(database)
                                .lanes(4, router)
                                .maxRows(500)
                                .build());
        closing.add(applier);
        return applier;
    }

    /** 80% of the changes hit three hot keys, the rest 300 others; every change raises n. */
    private static void skewedLoad(String database, Random random, int[] n, int transactions)
            throws SQLException {
        try (Connection connection = SOURCE.server().connect();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int t = 0; t < transactions; t++) {
                for (int s = 0, count = 1 + random.nextInt(4); s < count; s++) {
                    int k =
                            random.nextInt(10) < 8
                                    ? 1 + random.nextInt(3)
                                    : 1 + random.nextInt(300);
                    n[k]++;
                    statement.execute(
                            "INSERT INTO "
                                    + database
                                    + ".seq VALUES ("
                                    + k
                                    + ", "
                                    + n[k]
                                    + ", "
                                    + random.nextInt(5)
                                    + ") ON DUPLICATE KEY UPDATE n = VALUES(n), customer = VALUES(customer)");
                }
                connection.commit();
            }
        }
    }

    private void shouldKeepKeyOrder(String database, LaneRouter router) throws Exception {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        JdbcApplier applier = microBatched(database, router);
        Random random = new Random(seed);
        int[] n = new int[301];
        skewedLoad(database, random, n, 300);
        Consumer consumer =
                Pipeline.consume(relay, database, applier, applier.checkpointStore(), 40);
        closing.add(consumer);
        skewedLoad(database, random, n, 300); // while the lanes apply
        List<Spec> specs =
                List.of(
                        Spec.of("k", Canon.TEXT),
                        Spec.of("n", Canon.TEXT),
                        Spec.of("customer", Canon.TEXT));
        List<String> expected;
        try (Connection connection = SOURCE.server().connect()) {
            expected = TableContents.rows(connection, database + ".seq", specs, false);
        }
        Target target = Target.of(POSTGRES.database());
        Pipeline.awaitUntil(
                consumer,
                () -> {
                    try (Connection connection = target.connect()) {
                        return TableContents.rows(connection, database + ".seq", specs, true)
                                .equals(expected);
                    } catch (SQLException e) {
                        return false;
                    }
                },
                Duration.ofSeconds(60));
        long[] lanes = applier.laneCheckpoints();
        assertThat(lanes).hasSize(4);
        assertThat(lanes).containsOnly(lanes[0]);
        assertThat(applier.rowsApplied()).isPositive();
        // What docs/appliers.md says of barriers: none with key (a row never changes lanes); with
        // the others, hot keys touched by two lanes within a batch make some.
        if (router instanceof LaneRouter.ByKey) {
            assertThat(applier.barriers()).as("barriers with the key router").isZero();
        } else {
            assertThat(applier.barriers()).as("barriers with " + router).isPositive();
        }
        System.out.println(
                "router="
                        + router
                        + ", rows="
                        + applier.rowsApplied()
                        + ", commits="
                        + applier.commits()
                        + ", barriers="
                        + applier.barriers());
    }

    @Test
    void shouldKeepEachKeysOrderWhenLanesSplitBySkewedKeys() throws Exception {
        shouldKeepKeyOrder("lanes_key", new LaneRouter.ByKey());
    }

    @Test
    void shouldKeepEachKeysOrderWhenLanesSplitByTransaction() throws Exception {
        shouldKeepKeyOrder("lanes_txn", new LaneRouter.ByTransaction());
    }

    @Test
    void shouldKeepEachKeysOrderWhenLanesSplitByEvent() throws Exception {
        shouldKeepKeyOrder("lanes_event", new LaneRouter.ByEvent());
    }

    @Test
    void shouldKeepEachKeysOrderWhenLanesSplitByAColumnWhoseValueChanges() throws Exception {
        shouldKeepKeyOrder("lanes_col", new LaneRouter.ByColumn("customer"));
    }
}
