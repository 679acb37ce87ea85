package io.changegrid.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.bench.BenchMain;
import io.changegrid.bench.harness.ResultFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos run's short form, as {@code bin/bench chaos} runs it: 90 s of kills with a fixed seed
 * (printed by the run) over a private MariaDB, ZooKeeper, two relays and three appliers into the
 * local PostgreSQL; every kind of component is killed at least once, the target ends equal to the
 * source, and no change was applied twice. The long form and its figures: docs/benchmarks.md,
 * "Chaos".
 */
class ChaosIT {

    private static final String SEED = "20261126";

    @TempDir Path directory;

    @Test
    void shouldLoseAndAddNoRowWhenEveryKindOfComponentIsKilledUnderLoad() throws Exception {
        Path results = directory.resolve("chaos.jsonl");

        int status =
                BenchMain.execute(
                        "chaos",
                        "--duration",
                        "90s",
                        "--seed",
                        SEED,
                        "--results",
                        results.toString());

        List<String> lines = Files.readAllLines(results);
        assertThat(lines).hasSize(1);
        JsonNode line = ResultFile.JSON.readTree(lines.get(0));
        assertThat(status).as("exit status; result: %s", line).isZero();
        assertThat(line.get("rowsLost").asLong()).isZero();
        assertThat(line.get("rowsExtra").asLong()).isZero();
        assertThat(line.get("rowsDiffering").asLong()).isZero();
        assertThat(line.get("changesAppliedTwice").asLong()).isZero();
        for (String kind : List.of("relay", "applier", "zookeeper", "source")) {
            assertThat(line.get("kills").get(kind).asInt()).as("kills of %s", kind).isPositive();
        }
        assertThat(line.get("ddlAtSeconds").asLong()).isNotNegative();
        assertThat(line.get("largeTransactions").asLong()).isPositive();
    }
}
