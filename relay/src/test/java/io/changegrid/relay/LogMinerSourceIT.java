package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.events.Operation;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.logminer.LogMinerWorkload;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.PostgresServerExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay with {@code source.type: logminer}, found through the fetcher SPI, mining grid-kit's
 * LogMiner stand-in (a private PostgreSQL) while the workload generator writes LogMiner rows: it
 * serves every committed transaction on the binary and the JSON stream, and, restarted from its
 * replay point, rebuilds the same timeline with nothing lost or repeated.
 */
class LogMinerSourceIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @TempDir Path state;

    private Config config(LogMinerStandIn standIn) {
        return RelaySettings.load(
                Map.of(),
                Map.ofEntries(
                        Map.entry("source.type", "logminer"),
                        Map.entry("source.url", standIn.jdbcUrl()),
                        Map.entry("source.user", standIn.user()),
                        Map.entry("source.dialect", "postgresql-stand-in"),
                        Map.entry("source.pollInterval", "20ms"),
                        Map.entry("source.heartbeatInterval", "200ms"),
                        Map.entry("buffer.capacity", "16MiB"),
                        Map.entry("buffer.segmentSize", "1MiB"),
                        Map.entry("state.directory", state.toString()),
                        Map.entry("http.port", "0")));
    }

    /** Row-change frames per transaction SCN, as served from the start of the buffer. */
    private static TreeMap<Long, Long> rowChangesByScn(Relay relay) throws Exception {
        HttpResponse<byte[]> response =
                new StreamClient(relay.httpPort())
                        .get("/v1/stream?from=-1&timeoutMs=0&maxBytes=16777216");
        assertThat(response.statusCode()).isEqualTo(200);
        return StreamClient.frames(response.body()).stream()
                .filter(
                        f ->
                                f.operationCode() == Operation.INSERT.code()
                                        || f.operationCode() == Operation.UPDATE.code()
                                        || f.operationCode() == Operation.DELETE.code())
                .collect(
                        Collectors.groupingBy(
                                StreamClient.Frame::scn, TreeMap::new, Collectors.counting()));
    }

    @Test
    void shouldServeEveryCommitOnBothStreamsAndRebuildItWhenRestarted() throws Exception {
        LogMinerStandIn standIn = LogMinerStandIn.create(POSTGRES.server(), "oracle1");
        LogMinerWorkload.define(standIn);
        // Everything but Unsupported Type: the relay captures every table, DOCS too.
        var options = new LogMinerWorkload.Options(4, 6, 0.15, 0.1, 0.3, 0.1, 0.05, 4000, -1, 0);
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("LogMinerSourceIT seed=" + seed);
        var workload = new LogMinerWorkload(seed, standIn.currentScn() + 1, options);
        TreeMap<Long, Long> before;
        try (Relay relay = Relay.start(config(standIn))) {
            workload.write(standIn, 60, 5);
            int committed = workload.committed().size();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    relay.failure() != null
                                            || rowChangesByScn(relay).size() >= committed);
            assertThat(relay.failure()).isNull();
            before = rowChangesByScn(relay);
            assertThat(before.values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(
                            workload.committed().stream()
                                    .mapToLong(LogMinerWorkload.Committed::rowChanges)
                                    .sum());
            String json =
                    new StreamClient(relay.httpPort())
                            .getText("/v1/stream?from=-1&timeoutMs=0&format=json&maxBytes=16777216")
                            .body();
            assertThat(json).contains("ITEMS").contains("NNAME");
            List<String> xids =
                    workload.committed().stream().map(LogMinerWorkload.Committed::xid).toList();
            assertThat(json).contains(xids.get(0)).contains(xids.get(xids.size() - 1));
            assertThat(relay.status().sourceAddress()).contains("dialect=postgresql-stand-in");
        }
        workload.write(standIn, 20, 5); // while the relay is down: LogMiner keeps the redo
        try (Relay relay = Relay.start(config(standIn))) {
            int committed = workload.committed().size();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    relay.failure() != null
                                            || rowChangesByScn(relay).size() >= committed);
            assertThat(relay.failure()).isNull();
            TreeMap<Long, Long> after = rowChangesByScn(relay);
            assertThat(after).hasSize(committed).containsAllEntriesOf(before);
        }
    }
}
