package io.changegrid.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The report's PNG charts, like the whitepaper's Figures 4-9: throughput against configuration,
 * this machine's runs beside the whitepaper's, each bar labelled with its rate and the cores it
 * used. A chart shows the runs of its stage's newest workload.
 */
final class ReportCharts {

    private final RunGroups groups;
    private final Path directory;
    private final String machine;

    ReportCharts(RunGroups groups, Path directory, String machine) {
        this.groups = groups;
        this.directory = directory;
        this.machine = machine;
    }

    /** Throughput by relay count (Table 1, Figures 4-5); the bare reader as a reference line. */
    Optional<Path> stage1() throws IOException {
        String workload = groups.newestWorkload("stage1");
        List<RunGroup> runs =
                select("stage1", workload, g -> g.relays() > 0 && g.policies().equals("none"));
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        BarChart chart =
                chart(
                        "Stage 1: binlog to relays, " + workload,
                        runs,
                        g -> g.relays() + (g.relays() == 1 ? " relay" : " relays by table"),
                        g -> WhitepaperFigures.sameConfiguration("stage1", g.relays(), 0));
        select("stage1", workload, g -> g.relays() == 0).stream()
                .findFirst()
                .ifPresent(
                        bare ->
                                chart.reference(
                                        "bare BinaryLogClient (ceiling)",
                                        bare.median().path("eventsPerSec").asDouble()));
        return Optional.of(write(chart, "stage1-relays.png"));
    }

    /** Throughput by consumer count, binary format (Table 2, Figures 7-8). */
    Optional<Path> stage2() throws IOException {
        String workload = groups.newestWorkload("stage2");
        List<RunGroup> runs =
                select(
                        "stage2",
                        workload,
                        g -> g.format().equals("binary") && g.compression().equals("none"));
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                write(
                        chart(
                                "Stage 2: relay to consumers, " + workload,
                                runs,
                                g ->
                                        g.consumers()
                                                + (g.consumers() == 1 ? " consumer" : " consumers"),
                                g ->
                                        WhitepaperFigures.sameConfiguration(
                                                "stage2", 1, g.consumers())),
                        "stage2-consumers.png"));
    }

    /** End-to-end throughput by topology (Table 3, Figure 9). */
    Optional<Path> e2e() throws IOException {
        String workload = groups.newestWorkload("e2e");
        List<RunGroup> runs =
                select(
                        "e2e",
                        workload,
                        g -> g.format().equals("binary") && g.compression().equals("none"));
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                write(
                        chart(
                                "End to end, " + workload,
                                runs,
                                g ->
                                        g.relays()
                                                + (g.relays() == 1 ? " relay x " : " relays x ")
                                                + g.consumers()
                                                + (g.consumers() == 1 ? " consumer" : " consumers"),
                                g ->
                                        WhitepaperFigures.sameConfiguration(
                                                "e2e", g.relays(), g.consumers())),
                        "e2e.png"));
    }

    private List<RunGroup> select(String stage, String workload, Predicate<RunGroup> which) {
        return groups.of(stage).stream()
                .filter(g -> g.workload().equals(workload))
                .filter(which)
                .toList();
    }

    private BarChart chart(
            String title,
            List<RunGroup> runs,
            java.util.function.Function<RunGroup, String> category,
            java.util.function.Function<RunGroup, Optional<WhitepaperFigures.Row>> paper) {
        List<String> categories = new ArrayList<>();
        double[] ours = new double[runs.size()];
        String[] ourLabels = new String[runs.size()];
        double[] theirs = new double[runs.size()];
        String[] theirLabels = new String[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            RunGroup group = runs.get(i);
            JsonNode m = group.median();
            categories.add(category.apply(group));
            ours[i] = m.path("eventsPerSec").asDouble();
            ourLabels[i] =
                    BarChart.compact(ours[i])
                            + " ev/s\n"
                            + String.format(Locale.ROOT, "%.2f cores", m.path("cpu").asDouble());
            Optional<WhitepaperFigures.Row> row = paper.apply(group);
            theirs[i] = row.map(r -> (double) r.eventsPerSec()).orElse(Double.NaN);
            theirLabels[i] =
                    row.map(
                                    r ->
                                            BarChart.compact(r.eventsPerSec())
                                                    + " ev/s\n"
                                                    + (Double.isNaN(r.vcpus())
                                                            ? r.machine()
                                                            : String.format(
                                                                    Locale.ROOT,
                                                                    "%.2f vCPUs",
                                                                    r.vcpus())))
                            .orElse("");
        }
        return new BarChart(title, "events per second", categories)
                .series("changegrid on " + machine, ours, ourLabels)
                .series(
                        "whitepaper (n1-standard-2 single, n1-standard-8 scaled)",
                        theirs,
                        theirLabels);
    }

    private Path write(BarChart chart, String name) throws IOException {
        Path file = directory.resolve(name);
        chart.write(file);
        return file;
    }
}
