package io.changegrid.gridkit.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's files look as the File Writer handler's would: rolled, renamed, in trail order. */
class TrailFileWriterTest {

    @TempDir Path dir;

    @Test
    void shouldRollBySizeRenameOnFinalizeAndAdvancePositionsWhenWritingTransactions()
            throws Exception {
        List<String> positions = new ArrayList<>();
        try (TrailFileWriter writer =
                new TrailFileWriter(
                        TrailFileWriter.Options.in(dir)
                                .withRolling(2048, Duration.ofHours(1))
                                .withTrail(5, 8192))) {
            for (int t = 0; t < 40; t++) {
                Map<String, Object> after = new LinkedHashMap<>();
                after.put("ID", (long) t);
                after.put("NOTE", "n\u00e9 \"" + t + "\"");
                after.put("GONE", TrailOperation.MISSING);
                writer.write(
                        "x." + t,
                        Integer.toString(t),
                        Instant.parse("2026-11-26T10:00:00Z"),
                        List.of(TrailOperation.insert("SHOP.T", List.of("ID"), after)));
                positions.add(writer.lastPos());
                assertThat(Files.exists(writer.activeFile())).isTrue();
                assertThat(writer.activeFile().toString()).endsWith(".json.tmp");
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.sorted().toList();
            assertThat(all).hasSizeGreaterThan(3).allMatch(f -> f.toString().endsWith(".json"));
            String first = Files.readAllLines(all.get(0)).get(0);
            assertThat(first)
                    .startsWith(
                            "{\"table\":\"SHOP.T\",\"op_type\":\"I\",\"op_ts\":\"2026-11-26 10:00:00.000000\",")
                    .contains("\"pos\":\"00000000050000001416\"")
                    .contains(
                            "\"primary_keys\":[\"ID\"],\"tokens\":{\"TK-XID\":\"x.0\",\"TK-CSN\":\"0\"}")
                    .endsWith(
                            "\"after\":{\"ID\":0,\"NOTE\":\"n\u00e9 \\\"0\\\"\",\"GONE_isMissing\":true}}");
        }
        assertThat(positions).isSorted().doesNotHaveDuplicates();
        assertThat(positions.get(positions.size() - 1)).startsWith("0000000006");
    }
}
