package io.changegrid.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.bench.harness.ResultFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness end to end at a small size: each run starts its own private MariaDB (test kit),
 * writes 2,000 row changes, runs relay and consumer processes through the same code path as {@code
 * bin/bench}, and every result line must count exactly the events generated.
 */
class BenchHarnessIT {

    private static final String RECORDS = "2000";

    @TempDir Path directory;

    @Test
    void shouldCountEveryGeneratedEventWhenTwoRelaysSplitTheSourceWithAndWithoutPolicies()
            throws Exception {
        Path results = directory.resolve("stage1.jsonl");

        int status =
                BenchMain.execute(
                        "stage1",
                        "--records",
                        RECORDS,
                        "--relays",
                        "2",
                        "--policies",
                        "policies/chain.yaml",
                        "--relay-heap",
                        "256m",
                        "--results",
                        results.toString());

        assertThat(status).isZero();
        List<JsonNode> lines = read(results);
        assertThat(lines)
                .extracting(line -> line.get("configuration").asText())
                .containsExactly(
                        "bare BinaryLogClient",
                        "2 relays by table",
                        "2 relays by table + policies");
        assertCounted(lines);
        assertThat(lines.get(1).get("tablesPerRelay").asText()).isIn("[2, 1]", "[1, 2]");
    }

    @Test
    void shouldCountEveryGeneratedEventWhenARelayAndTheBareReaderReadAPostgresSlot()
            throws Exception {
        Path results = directory.resolve("stage1-postgresql.jsonl");

        int status =
                BenchMain.execute(
                        "stage1",
                        "--source-type",
                        "postgresql",
                        "--records",
                        RECORDS,
                        "--repeat",
                        "2",
                        "--relay-heap",
                        "256m",
                        "--results",
                        results.toString());

        assertThat(status).isZero();
        List<JsonNode> lines = read(results);
        assertThat(lines)
                .extracting(line -> line.get("configuration").asText())
                .containsExactly(
                        "bare pgjdbc pgoutput reader",
                        "1 relay, source.type postgresql",
                        "bare pgjdbc pgoutput reader",
                        "1 relay, source.type postgresql");
        assertCounted(lines);
        // Each repetition reads the same WAL range, from its own copy of the slot made before the
        // load, and each relay publishes every row change of it (assertCounted).
        assertThat(lines)
                .extracting(
                        line -> line.get("walFrom").asText() + ".." + line.get("walTo").asText())
                .containsOnly(
                        lines.get(0).get("walFrom").asText()
                                + ".."
                                + lines.get(0).get("walTo").asText());
        assertThat(lines.get(1).get("frameBytes").asLong()).isPositive();
        assertThat(lines.get(1).get("ratio").asDouble()).isPositive();
    }

    @Test
    void shouldCountEveryGeneratedEventWhenTwoConsumersSplitARelayByTableInBinaryAndJson()
            throws Exception {
        Path results = directory.resolve("stage2.jsonl");

        int status =
                BenchMain.execute(
                        "stage2",
                        "--records",
                        RECORDS,
                        "--consumers",
                        "2",
                        "--consumer-partitioning",
                        "table",
                        "--format",
                        "binary,json",
                        "--relay-heap",
                        "256m",
                        "--consumer-heap",
                        "256m",
                        "--results",
                        results.toString());

        assertThat(status).isZero();
        List<JsonNode> lines = read(results);
        assertThat(lines)
                .extracting(line -> line.get("configuration").asText())
                .containsExactly("2 consumers by table, binary", "2 consumers by table, json");
        assertCounted(lines);
    }

    @Test
    void shouldCountEveryGeneratedEventWhenThreeConsumersReadTwoRelaysEndToEnd() throws Exception {
        Path results = directory.resolve("e2e.jsonl");

        int status =
                BenchMain.execute(
                        "e2e",
                        "--records",
                        RECORDS,
                        "--topologies",
                        "2x3",
                        "--relay-heap",
                        "256m",
                        "--consumer-heap",
                        "256m",
                        "--results",
                        results.toString());

        assertThat(status).isZero();
        List<JsonNode> lines = read(results);
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0).get("configuration").asText())
                .isEqualTo("2 relays, 3 consumers, binary");
        assertCounted(lines);
    }

    @Test
    void shouldCountEveryGeneratedEventWhenThreeConsumersReadTwoRelaysOfAPostgresSource()
            throws Exception {
        Path results = directory.resolve("e2e-postgresql.jsonl");

        int status =
                BenchMain.execute(
                        "e2e",
                        "--source-type",
                        "postgresql",
                        "--records",
                        RECORDS,
                        "--topologies",
                        "1x1,2x3",
                        "--relay-heap",
                        "256m",
                        "--consumer-heap",
                        "256m",
                        "--results",
                        results.toString());

        assertThat(status).isZero();
        List<JsonNode> lines = read(results);
        assertThat(lines)
                .extracting(line -> line.get("configuration").asText())
                .containsExactly("1 relay, 1 consumer, binary", "2 relays, 3 consumers, binary");
        // Each relay read its own copy of the slot and published its tables' share; the consumers
        // together received every row change (assertCounted), whole runs over the same WAL.
        assertCounted(lines);
        assertThat(lines)
                .allSatisfy(
                        line -> {
                            assertThat(line.get("sourceType").asText()).isEqualTo("postgresql");
                            assertThat(line.get("walFrom").asText())
                                    .isEqualTo(lines.get(0).get("walFrom").asText());
                        });
        assertThat(lines.get(1).get("partitioning").asText()).isEqualTo("table");
    }

    @Test
    void shouldCopyEveryRowWhenASnapshotRunsBesideALiveLoadIntoBothTargets() throws Exception {
        Path results = directory.resolve("snapshot.jsonl");

        int status =
                BenchMain.execute(
                        "snapshot",
                        "--rows",
                        "3000",
                        "--chunk-size",
                        "500",
                        "--live-rate",
                        "50",
                        "--after-seconds",
                        "1",
                        "--relay-heap",
                        "256m",
                        "--results",
                        results.toString());

        assertThat(status).isZero();
        List<JsonNode> lines = read(results);
        assertThat(lines)
                .extracting(line -> line.get("configuration").asText())
                .containsExactly("snapshot into counting", "snapshot into postgresql");
        for (JsonNode line : lines) {
            // Keys the live load changed while a chunk was read arrive live instead, so a few
            // of the 3,000 may be missing from the snapshot's rows; most are there.
            assertThat(line.get("snapshotRows").asLong()).as("%s", line).isGreaterThan(2_000);
            assertThat(line.get("rowsPerSec").asLong()).isPositive();
            assertThat(line.get("liveCommittedPerSecDuring").asLong()).isPositive();
            assertThat(line.get("liveDeliveredPerSecAfter").asLong()).isPositive();
            assertThat(line.get("countsMatch").asBoolean()).as("%s", line).isTrue();
        }
        // The applier's target ends with the source's rows: the snapshot's and the live load's.
        assertThat(lines.get(1).get("targetRowsAtEnd"))
                .isEqualTo(lines.get(1).get("sourceRowsAtEnd"));
    }

    private static void assertCounted(List<JsonNode> lines) {
        for (JsonNode line : lines) {
            assertThat(line.get("expectedEvents").asLong())
                    .as("generated events: %s", line)
                    .isEqualTo(Long.parseLong(RECORDS));
            assertThat(line.get("events").asLong())
                    .as("counted events: %s", line)
                    .isEqualTo(line.get("expectedEvents").asLong());
            assertThat(line.get("seconds").asDouble()).isPositive();
            assertThat(line.get("eventsPerSec").asLong()).isPositive();
        }
    }

    private static List<JsonNode> read(Path results) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String text : Files.readAllLines(results)) {
            lines.add(ResultFile.JSON.readTree(text));
        }
        return lines;
    }
}
