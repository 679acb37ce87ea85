package io.changegrid.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.bench.harness.ResultFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Result lines read from results files and grouped by configuration and workload. Lines of the
 * earlier harness (without a {@code configuration} field), lines older than {@code since}, and
 * lines from a source other than MySQL/MariaDB (a {@code sourceType} other than mysql: PostgreSQL,
 * GoldenGate) are left out: the report's tables are the whitepaper's, which measured MySQL.
 */
final class RunGroups {

    private final List<RunGroup> groups;
    private final int skipped;

    private RunGroups(List<RunGroup> groups, int skipped) {
        this.groups = groups;
        this.skipped = skipped;
    }

    /**
     * @param since ISO-8601 instant; lines measured before it are left out ({@code null}: none)
     * @throws IOException naming the file and line of a line that is not JSON
     */
    static RunGroups read(List<Path> files, String since) throws IOException {
        Map<String, List<JsonNode>> byKey = new LinkedHashMap<>();
        int skipped = 0;
        for (Path file : files) {
            if (!Files.exists(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).isBlank()) {
                    continue;
                }
                JsonNode line;
                try {
                    line = ResultFile.JSON.readTree(lines.get(i));
                } catch (IOException e) {
                    throw new IOException(
                            "not a JSON result line: file=" + file + ", line=" + (i + 1), e);
                }
                if (!line.has("configuration")
                        || !line.path("sourceType").asText("mysql").equals("mysql")
                        || (since != null && line.path("time").asText().compareTo(since) < 0)) {
                    skipped++;
                    continue;
                }
                byKey.computeIfAbsent(RunGroup.key(line), key -> new ArrayList<>()).add(line);
            }
        }
        List<RunGroup> groups = new ArrayList<>();
        byKey.values().forEach(runs -> groups.add(new RunGroup(runs)));
        return new RunGroups(groups, skipped);
    }

    /** The groups of one stage, by records, then relays, consumers and configuration. */
    List<RunGroup> of(String stage) {
        return groups.stream()
                .filter(group -> group.stage().equals(stage))
                .sorted(
                        java.util.Comparator.comparing(RunGroup::workload)
                                .thenComparingInt(RunGroup::relays)
                                .thenComparingInt(RunGroup::consumers)
                                .thenComparing(
                                        group -> group.median().path("configuration").asText()))
                .toList();
    }

    /** Lines left out (earlier harness or before {@code since}). */
    int skipped() {
        return skipped;
    }

    /** The workload of a stage's newest run, or empty if it has none: what its chart shows. */
    String newestWorkload(String stage) {
        return of(stage).stream()
                .max(java.util.Comparator.comparing(RunGroup::newest))
                .map(RunGroup::workload)
                .orElse("");
    }
}
