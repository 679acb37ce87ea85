package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot in the stream from a private PostgreSQL with logical decoding ({@link SnapshotRun}):
 * 20,000 rows in chunks of 500, written to concurrently and between the watermarks of every other
 * chunk; the replica ends equal to the source.
 */
class PostgresSnapshotIT {

    private static final int ROWS = 20_000;

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @TempDir Path state;

    @Test
    void shouldEndEqualToTheSourceWhenRowsChangeBetweenTheWatermarksOfChunks() throws Exception {
        POSTGRES.server().createDatabase("bank");
        POSTGRES.server()
                .execute(
                        "bank",
                        "CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL, note text)",
                        "ALTER TABLE accounts REPLICA IDENTITY FULL",
                        "INSERT INTO accounts SELECT g, g * 10, 'n' || g FROM generate_series(1, "
                                + ROWS
                                + ") g");
        long seed = System.nanoTime();
        System.out.println("PostgresSnapshotIT seed=" + seed);
        try (Relay relay = Relay.start(config())) {
            SnapshotRun.Outcome outcome =
                    new SnapshotRun(
                                    relay,
                                    () -> POSTGRES.server().connect("bank"),
                                    "accounts",
                                    ROWS,
                                    seed)
                            .run();

            System.out.println("PostgresSnapshotIT " + SnapshotIT.summary(outcome));
            assertThat(outcome.chunksHooked())
                    .as("chunks written between watermarks")
                    .isGreaterThan(10);
            assertThat(outcome.concurrentWrites()).isGreaterThan(100);
            assertThat(outcome.snapshotRows()).isGreaterThan(ROWS / 2);
            assertThat(outcome.replica()).hasSameSizeAs(outcome.source());
            assertThat(outcome.replica()).isEqualTo(outcome.source());
        }
    }

    private Config config() {
        Map<String, String> settings = new HashMap<>();
        settings.put("source.type", "postgresql");
        settings.put("source.host", POSTGRES.server().host());
        settings.put("source.port", Integer.toString(POSTGRES.server().port()));
        settings.put("source.database", "bank");
        settings.put("source.user", POSTGRES.server().user());
        settings.put("source.slot", "snapshot_it");
        settings.put("buffer.capacity", "64MiB");
        settings.put("buffer.segmentSize", "4MiB");
        settings.put("state.directory", state.toString());
        settings.put("http.port", "0");
        settings.put("snapshot.chunkSize", "500");
        return RelaySettings.load(Map.of(), settings);
    }
}
