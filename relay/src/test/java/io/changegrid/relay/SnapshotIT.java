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

    /**
     * The same on a GTID timeline ({@code source.resume: gtid}): the watermarks come from
     * {@code @@gtid_binlog_pos}, so every chunk is placed at a GTID-timeline SCN, just below the
     * next transaction's (odd, where transactions are even), among the live changes' SCNs.
     */
    @Test
    void shouldPlaceChunksOnTheGtidTimelineWhenTheRelayResumesByGtid() throws Exception {
        int rows = 5_000;
        MARIADB.server()
                .execute(
                        "CREATE DATABASE gtid_shop",
                        "CREATE TABLE gtid_shop.accounts (id INT PRIMARY KEY, balance BIGINT NOT"
                                + " NULL, note VARCHAR(40))",
                        "INSERT INTO gtid_shop.accounts SELECT seq, seq * 10, CONCAT('n', seq)"
                                + " FROM gtid_shop.seq_1_to_"
                                + rows);
        long seed = System.nanoTime();
        System.out.println("SnapshotIT gtid seed=" + seed);
        Map<String, String> gtid = new HashMap<>();
        gtid.put("source.resume", "gtid");
        gtid.put("source.serverId", "9302");
        gtid.put("snapshot.chunkSize", "250");
        gtid.put("capture.include", "gtid_shop.accounts");
        gtid.put("state.directory", state.resolve("gtid").toString());
        try (Relay relay = Relay.start(config(gtid))) {
            assertThat(relay.status().timeline()).isEqualTo("mariadb-gtid:domain=0");
            SnapshotRun.Outcome outcome =
                    new SnapshotRun(
                                    relay,
                                    MARIADB.server()::connect,
                                    "gtid_shop.accounts",
                                    rows,
                                    seed)
                            .run();

            System.out.println("SnapshotIT gtid " + summary(outcome));
            long gtidTimeline = 1L << 62;
            assertThat(outcome.chunksHooked()).isGreaterThan(3);
            assertThat(outcome.chunkScns()).isNotEmpty().allMatch(scn -> scn >= gtidTimeline);
            assertThat(outcome.chunkScns())
                    .as("a chunk lies just below the next transaction's SCN")
                    .allMatch(scn -> (scn & 1) == 1);
            assertThat(outcome.liveScns()).isNotEmpty().allMatch(scn -> scn >= gtidTimeline);
            assertThat(outcome.chunkScns().first()).isLessThan(outcome.liveScns().last());
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
        return config(Map.of());
    }

    /** The relay's settings, {@code more} replacing the defaults. */
    private Config config(Map<String, String> more) {
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
        // Each test has its own table on the one server; the replica keys rows by id alone.
        settings.put("capture.include", "shop.accounts");
        settings.putAll(more);
        return RelaySettings.load(Map.of(), settings);
    }
}
