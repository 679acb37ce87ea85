package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot in the stream from a private mariadbd ({@link SnapshotRun}): 50,000 rows in chunks of
 * 1,000, written to concurrently and between the watermarks of every other chunk; the replica ends
 * equal to the source.
 */
class SnapshotIT {

    /** 50,000 by default; the 1M-row run: {@code -Dchangegrid.snapshotRows=1000000}. */
    private static final int ROWS = Integer.getInteger("changegrid.snapshotRows", 50_000);

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path state;

    @Test
    void shouldEndEqualToTheSourceWhenRowsChangeBetweenTheWatermarksOfChunks() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL,"
                                + " note VARCHAR(40))",
                        "INSERT INTO shop.accounts SELECT seq, seq * 10, CONCAT('n', seq)"
                                + " FROM shop.seq_1_to_"
                                + ROWS);
        long seed = System.nanoTime();
        System.out.println("SnapshotIT seed=" + seed);
        try (Relay relay = Relay.start(config())) {
            long started = System.nanoTime();
            SnapshotRun.Outcome outcome =
                    new SnapshotRun(relay, MARIADB.server()::connect, "shop.accounts", ROWS, seed)
                            .run();

            System.out.println(
                    "SnapshotIT "
                            + summary(outcome)
                            + ", millis="
                            + (System.nanoTime() - started) / 1_000_000);
            assertThat(outcome.chunksHooked())
                    .as("chunks written between watermarks")
                    .isGreaterThan(10);
            assertThat(outcome.concurrentWrites()).isGreaterThan(100);
            assertThat(outcome.snapshotRows()).isGreaterThan(ROWS / 2);
            assertThat(outcome.replica()).hasSameSizeAs(outcome.source());
            assertThat(outcome.replica()).isEqualTo(outcome.source());
        }
    }

    static String summary(SnapshotRun.Outcome outcome) {
        return "chunks read="
                + outcome.chunksRead()
                + ", hooked="
                + outcome.chunksHooked()
                + ", concurrent writes="
                + outcome.concurrentWrites()
                + ", snapshot rows="
                + outcome.snapshotRows()
                + ", rows at end="
                + outcome.source().size();
    }

    private Config config() {
        Map<String, String> settings = new HashMap<>();
        settings.put("source.host", MARIADB.server().host());
        settings.put("source.port", Integer.toString(MARIADB.server().port()));
        settings.put("source.user", MARIADB.server().user());
        settings.put("source.password", MARIADB.server().password());
        settings.put("source.serverId", "9301");
        settings.put("source.heartbeatInterval", "200ms");
        settings.put("buffer.capacity", "64MiB");
        settings.put("buffer.segmentSize", "4MiB");
        settings.put("state.directory", state.toString());
        settings.put("http.port", "0");
        settings.put("snapshot.chunkSize", "1000");
        return RelaySettings.load(Map.of(), settings);
    }
}
