package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bootstrap end to end from a PostgreSQL source (docs/bootstrap.md): a table with 30,000 rows
 * snapshotted into the PostgreSQL applier ({@code start: snapshot}) while a writer changes it and a
 * chunk hook writes between the watermarks of every other chunk; the target ends equal. The issue's
 * 1M-row run: {@code -Dchangegrid.snapshotRows=1000000}.
 */
class SnapshotPostgresSourceIT {

    private static final int ROWS = Integer.getInteger("changegrid.snapshotRows", 30_000);
    private static final String SOURCE_DB = "bank";
    private static final String TARGET_DB = "copy";

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @TempDir Path state;

    @Test
    void shouldEndEqualToTheSourceWhenAPostgresTableIsSnapshottedIntoTheApplier() throws Exception {
        POSTGRES.server().createDatabase(SOURCE_DB);
        POSTGRES.server().createDatabase(TARGET_DB);
        POSTGRES.server()
                .execute(
                        SOURCE_DB,
                        "CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL,"
                                + " note varchar(40))",
                        "ALTER TABLE accounts REPLICA IDENTITY FULL",
                        "INSERT INTO accounts SELECT g, g * 10, 'n' || g FROM generate_series(1, "
                                + ROWS
                                + ") g");
        Target target = Target.ofPostgres(POSTGRES.server(), TARGET_DB);
        try (Relay relay = Relay.start(relayConfig());
                Connection hookConnection = POSTGRES.server().connect(SOURCE_DB);
                JdbcApplier jdbc =
                        JdbcApplier.open(
                                ApplierOptions.builder(target.url())
                                        .credentials(target.user(), target.password())
                                        .consumerGroup("pg_snapshot")
                                        .lanes(2, new LaneRouter.ByKey())
                                        .build())) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> relay.buffer().newestScn() >= 0);
            AtomicInteger hooked = SnapshotScenario.hookWrites(relay, hookConnection, "accounts");
            long seed = Long.getLong("changegrid.seed", System.nanoTime());
            System.out.println("SnapshotPostgresSourceIT seed=" + seed);
            SnapshotScenario.Writer writer =
                    new SnapshotScenario.Writer(
                            () -> POSTGRES.server().connect(SOURCE_DB),
                            "accounts",
                            ROWS,
                            seed,
                            true);
            Thread writing = writer.start();
            SnapshotScenario.Watched applier = new SnapshotScenario.Watched(jdbc);
            try (Consumer consumer =
                    Consumer.builder()
                            .name("pg-snapshot")
                            .relays(Pipeline.url(relay))
                            .subscription(Subscription.tables("public.*"))
                            .set("start", "snapshot")
                            .pollTimeout(Duration.ofSeconds(1))
                            .batching(100, Duration.ofMillis(20))
                            .callback(applier)
                            .checkpointStore(jdbc.checkpointStore())
                            .build()) {
                consumer.start();
                try {
                    Pipeline.awaitUntil(
                            consumer, () -> applier.completions.get() > 0, Duration.ofMinutes(10));
                } finally {
                    writer.stop.set(true);
                    writing.join();
                    relay.snapshots().chunks().hook(null);
                }
                assertThat(writer.failure.get()).as("writer failure").isNull();
                assertThat(hooked.get()).as("chunks written between watermarks").isGreaterThan(5);
                assertThat(applier.snapshotRows.get()).isGreaterThan(ROWS / 2);

                POSTGRES.server().execute(SOURCE_DB, "INSERT INTO accounts VALUES (-1, 0, 'end')");
                String copyTable = target.table("public", "accounts");
                Pipeline.awaitUntil(
                        consumer,
                        () -> {
                            try {
                                return target.count(
                                                "SELECT count(*) FROM "
                                                        + copyTable
                                                        + " WHERE id = -1")
                                        > 0;
                            } catch (Exception e) {
                                return false;
                            }
                        },
                        Duration.ofMinutes(2));
                List<String> source;
                try (Connection connection = POSTGRES.server().connect(SOURCE_DB)) {
                    source = SnapshotScenario.rows(connection, "accounts");
                }
                List<String> copy;
                try (Connection connection = target.connect()) {
                    copy = SnapshotScenario.rows(connection, copyTable);
                }
                System.out.println(
                        "SnapshotPostgresSourceIT rows="
                                + source.size()
                                + ", source md5="
                                + SnapshotScenario.md5(source)
                                + ", target md5="
                                + SnapshotScenario.md5(copy));
                assertThat(SnapshotScenario.md5(copy)).isEqualTo(SnapshotScenario.md5(source));
                assertThat(copy).isEqualTo(source);
            }
        }
    }

    private io.changegrid.config.Config relayConfig() {
        return RelaySettings.load(
                Map.of(),
                Map.ofEntries(
                        Map.entry("source.type", "postgresql"),
                        Map.entry("source.host", POSTGRES.server().host()),
                        Map.entry("source.port", Integer.toString(POSTGRES.server().port())),
                        Map.entry("source.database", SOURCE_DB),
                        Map.entry("source.user", POSTGRES.server().user()),
                        Map.entry("source.slot", "snapshot_applier"),
                        Map.entry("source.heartbeatInterval", "200ms"),
                        Map.entry("buffer.capacity", "64MiB"),
                        Map.entry("buffer.segmentSize", "4MiB"),
                        Map.entry("state.directory", state.toString()),
                        Map.entry("http.port", "0"),
                        Map.entry("snapshot.chunkSize", "1000")));
    }
}
