package io.changegrid.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The markdown tables of the report: one per stage, each run group by its median run, with the
 * whitepaper's row for the same configuration beside it; latency; the whitepaper's full tables.
 */
final class ReportTables {

    private ReportTables() {}

    static String stage1(List<RunGroup> groups) {
        StringBuilder md = new StringBuilder();
        md.append(
                "| configuration | workload | runs | seconds | events/s | second half events/s |"
                        + " Mbit/s | cores used (load) |"
                        + " / bare reader | MariaDB cores | other cores | heap max |"
                        + " whitepaper, same configuration |"
                        + " its events/s | its Mbit/s | its vCPUs used (load) |\n");
        md.append(
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
        for (RunGroup group : groups) {
            JsonNode m = group.median();
            boolean bare = group.relays() == 0;
            md.append(
                    row(
                            m.path("configuration").asText(),
                            group.workload(),
                            Integer.toString(group.runs().size()),
                            fixed(m.path("seconds").asDouble(), 2),
                            rate(group),
                            group.medianOf("secondHalfEventsPerSec").stream()
                                    .mapToObj(v -> count(Math.round(v)))
                                    .findFirst()
                                    .orElse("-"),
                            bare ? "-" : count(Math.round(m.path("mbPerSec").asDouble() * 8)),
                            cores(m),
                            bare ? "1.000" : fixed(m.path("ratio").asDouble(), 3),
                            m.has("sourceCpu") ? fixed(m.get("sourceCpu").asDouble(), 2) : "-",
                            otherCores(m, "machineCpu", "cpu", "sourceCpu", "harnessCpu"),
                            m.has("heapMax") ? (m.get("heapMax").asLong() >> 20) + " MB" : "-",
                            whitepaper(
                                    bare || !group.policies().equals("none")
                                            ? Optional.empty()
                                            : WhitepaperFigures.sameConfiguration(
                                                    "stage1", group.relays(), 0))));
        }
        md.append(policyRatios(groups));
        return md.toString();
    }

    static String stage2(List<RunGroup> groups) {
        StringBuilder md = new StringBuilder();
        md.append(
                "| configuration | workload | runs | seconds | events/s | Mbit/s | consumer cores (load) |"
                        + " relay cores | other cores | heap max | whitepaper, same configuration |"
                        + " its events/s |"
                        + " its Mbit/s | its vCPUs used (load) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n");
        for (RunGroup group : groups) {
            JsonNode m = group.median();
            boolean comparable =
                    group.format().equals("binary") && group.compression().equals("none");
            md.append(
                    row(
                            m.path("configuration").asText(),
                            group.workload(),
                            Integer.toString(group.runs().size()),
                            fixed(m.path("seconds").asDouble(), 2),
                            rate(group),
                            count(Math.round(m.path("mbPerSec").asDouble() * 8)),
                            cores(m),
                            fixed(m.path("relayCpu").asDouble(), 2),
                            otherCores(m, "machineCpu", "cpu", "relayCpu", "harnessCpu"),
                            (m.path("heapMax").asLong() >> 20) + " MB",
                            whitepaper(
                                    comparable
                                            ? WhitepaperFigures.sameConfiguration(
                                                    "stage2", 1, group.consumers())
                                            : Optional.empty())));
        }
        return md.toString();
    }

    static String e2e(List<RunGroup> groups) {
        StringBuilder md = new StringBuilder();
        md.append(
                "| configuration | workload | runs | seconds | events/s | Mbit/s | cores used: relays +"
                        + " consumers (load) | MariaDB cores | other cores |"
                        + " whitepaper, same configuration |"
                        + " its events/s | its Mbit/s | its machines |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|\n");
        for (RunGroup group : groups) {
            JsonNode m = group.median();
            Optional<WhitepaperFigures.Row> paper =
                    WhitepaperFigures.sameConfiguration("e2e", group.relays(), group.consumers());
            md.append(
                    row(
                            m.path("configuration").asText(),
                            group.workload(),
                            Integer.toString(group.runs().size()),
                            fixed(m.path("seconds").asDouble(), 2),
                            rate(group),
                            count(Math.round(m.path("mbPerSec").asDouble() * 8)),
                            fixed(m.path("relayCpu").asDouble(), 2)
                                    + " + "
                                    + fixed(m.path("consumerCpu").asDouble(), 2)
                                    + " ("
                                    + fixed(m.path("cpuLoad").asDouble(), 2)
                                    + ")",
                            m.has("sourceCpu") ? fixed(m.get("sourceCpu").asDouble(), 2) : "-",
                            otherCores(
                                    m,
                                    "machineCpuRelayWindow",
                                    "relayCpu",
                                    "consumerCpu",
                                    "sourceCpu",
                                    "harnessCpu"),
                            paper.map(WhitepaperFigures.Row::configuration).orElse("-"),
                            paper.map(p -> count(p.eventsPerSec())).orElse("-"),
                            paper.map(p -> count(p.mbitPerSec())).orElse("-"),
                            paper.map(WhitepaperFigures.Row::machine).orElse("-")));
        }
        return md.toString();
    }

    static String latency(List<RunGroup> groups) {
        StringBuilder md = new StringBuilder();
        md.append(
                "| configuration | warm-up s | rows measured | runs | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RunGroup group : groups) {
            JsonNode m = group.median();
            md.append(
                    row(
                            m.path("configuration").asText(),
                            m.path("warmupSeconds").asText(),
                            count(m.path("count").asLong()),
                            Integer.toString(group.runs().size()),
                            fixed(m.path("p50Ms").asDouble(), 2),
                            fixed(m.path("p90Ms").asDouble(), 2),
                            fixed(m.path("p99Ms").asDouble(), 2),
                            fixed(m.path("p999Ms").asDouble(), 2),
                            fixed(m.path("maxMs").asDouble(), 2)));
        }
        return md.toString();
    }

    /** The whitepaper's Tables 1-3 as published. */
    static String whitepaper() {
        StringBuilder md = new StringBuilder();
        md.append(
                "| table | configuration | machines | CPU load | vCPUs used | seconds | events/s | Mbit/s |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|\n");
        for (WhitepaperFigures.Row row : WhitepaperFigures.ROWS) {
            md.append(
                    row(
                            switch (row.stage()) {
                                case "stage1" -> "1 (stage 1)";
                                case "stage2" -> "2 (stage 2)";
                                default -> "3 (end to end)";
                            },
                            row.configuration(),
                            row.machine(),
                            Double.isNaN(row.cpuLoad()) ? "-" : fixed(row.cpuLoad(), 2),
                            Double.isNaN(row.vcpus()) ? "-" : fixed(row.vcpus(), 2),
                            fixed(row.seconds(), 2),
                            count(row.eventsPerSec()),
                            count(row.mbitPerSec())));
        }
        return md.toString();
    }

    /** Whether every run counted what it generated, or which did not. */
    static String counts(List<RunGroup> groups) {
        List<String> wrong =
                groups.stream()
                        .flatMap(group -> group.runs().stream())
                        .filter(
                                run ->
                                        run.has("countsMatch")
                                                && !run.get("countsMatch").asBoolean())
                        .filter(run -> run.path("policies").asText("none").equals("none"))
                        .map(
                                run ->
                                        run.path("stage").asText()
                                                + " "
                                                + run.path("configuration").asText()
                                                + " at "
                                                + run.path("time").asText())
                        .toList();
        return wrong.isEmpty()
                ? "Every run above counted exactly the events its load generated.\n"
                : "Runs whose counted events differ from the generated ones: "
                        + String.join("; ", wrong)
                        + "\n";
    }

    private static String policyRatios(List<RunGroup> groups) {
        StringBuilder md = new StringBuilder();
        for (RunGroup chain : groups) {
            if (chain.policies().equals("none") || chain.relays() == 0) {
                continue;
            }
            groups.stream()
                    .filter(pass -> pass.policies().equals("none"))
                    .filter(
                            pass ->
                                    pass.relays() == chain.relays()
                                            && pass.workload().equals(chain.workload()))
                    .findFirst()
                    .ifPresent(
                            pass -> {
                                double passRate = pass.median().path("eventsPerSec").asDouble();
                                double chainRate = chain.median().path("eventsPerSec").asDouble();
                                md.append(
                                        String.format(
                                                Locale.ROOT,
                                                "%nWith policies `%s` (%d relay(s), %s): %s events/s against %s"
                                                        + " pass-through, ratio **%.3f** (medians of %d and %d runs)",
                                                chain.policies(),
                                                chain.relays(),
                                                chain.workload(),
                                                count(Math.round(chainRate)),
                                                count(Math.round(passRate)),
                                                chainRate / passRate,
                                                chain.runs().size(),
                                                pass.runs().size()));
                                java.util.OptionalDouble passHalf =
                                        pass.medianOf("secondHalfEventsPerSec");
                                java.util.OptionalDouble chainHalf =
                                        chain.medianOf("secondHalfEventsPerSec");
                                if (passHalf.isPresent() && chainHalf.isPresent()) {
                                    md.append(
                                            String.format(
                                                    Locale.ROOT,
                                                    "; over the windows' second halves %s against %s,"
                                                            + " ratio **%.3f**",
                                                    count(Math.round(chainHalf.getAsDouble())),
                                                    count(Math.round(passHalf.getAsDouble())),
                                                    chainHalf.getAsDouble()
                                                            / passHalf.getAsDouble()));
                                }
                                md.append(".\n");
                            });
        }
        return md.toString();
    }

    private static String[] whitepaper(Optional<WhitepaperFigures.Row> paper) {
        if (paper.isEmpty()) {
            return new String[] {"-", "-", "-", "-"};
        }
        WhitepaperFigures.Row row = paper.get();
        return new String[] {
            row.configuration() + " (" + row.machine() + ")",
            count(row.eventsPerSec()),
            count(row.mbitPerSec()),
            fixed(row.vcpus(), 2) + " (" + fixed(row.cpuLoad(), 2) + ")"
        };
    }

    private static String rate(RunGroup group) {
        String median = count(group.median().path("eventsPerSec").asLong());
        if (group.runs().size() == 1) {
            return "**" + median + "**";
        }
        return "**"
                + median
                + "** ("
                + count(group.slowest().path("eventsPerSec").asLong())
                + "–"
                + count(group.fastest().path("eventsPerSec").asLong())
                + ")";
    }

    /**
     * Cores the machine kept busy beyond the processes a line accounts for (other processes, the
     * kernel): {@code machine} minus the others, or "-" where the machine was not measured.
     */
    private static String otherCores(JsonNode m, String machine, String... measured) {
        if (!m.has(machine) || m.get(machine).asDouble() < 0) {
            return "-";
        }
        double other = m.get(machine).asDouble();
        for (String field : measured) {
            other -= m.path(field).asDouble();
        }
        return fixed(Math.max(0, other), 2);
    }

    private static String cores(JsonNode m) {
        return fixed(m.path("cpu").asDouble(), 2)
                + " ("
                + fixed(m.path("cpuLoad").asDouble(), 2)
                + ")";
    }

    private static String row(Object... cells) {
        StringBuilder line = new StringBuilder("|");
        for (Object cell : cells) {
            if (cell instanceof String[]) {
                for (String each : (String[]) cell) {
                    line.append(' ').append(each).append(" |");
                }
            } else {
                line.append(' ').append(cell).append(" |");
            }
        }
        return line.append('\n').toString();
    }

    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    static String fixed(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
