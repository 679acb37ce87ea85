package io.changegrid.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReportCommandTest {

    @TempDir Path directory;

    @Test
    void shouldWriteTablesBesideTheWhitepaperAndChartsWhenResultsExist() throws Exception {
        Path results = directory.resolve("stage1.jsonl");
        Files.write(
                results,
                List.of(
                        line("bare BinaryLogClient", 0, 400_000, "none"),
                        line("1 relay", 1, 250_000, "none"),
                        line("1 relay", 1, 270_000, "none"),
                        line("1 relay", 1, 260_000, "none"),
                        line("1 relay + policies", 1, 240_000, "chain.yaml"),
                        line("3 relays by table", 3, 110_000, "none"),
                        // a line of the earlier harness, without a configuration: left out
                        "{\"stage\":\"stage1\",\"events\":600000,\"eventsPerSec\":364433}",
                        // a PostgreSQL run's line (its own file by default): left out as well,
                        // else its 999,999 ev/s would be the median of the three "1 relay" runs
                        line("1 relay", 1, 999_999, "none")
                                .replace(
                                        "\"source\":\"private MariaDB\"",
                                        "\"source\":\"private MariaDB\",\"sourceType\":\"postgresql\""),
                        line("1 relay", 1, 999_999, "none")
                                .replace(
                                        "\"source\":\"private MariaDB\"",
                                        "\"source\":\"private MariaDB\",\"sourceType\":\"postgresql\"")));
        Path markdown = directory.resolve("benchmarks.md");
        Files.writeString(markdown, "intro\n<!-- report:begin -->\n<!-- report:end -->\noutro\n");
        Path charts = directory.resolve("charts");

        int status =
                new CommandLine(new ReportCommand())
                        .execute(
                                "--results", results.toString(),
                                "--markdown", markdown.toString(),
                                "--charts", charts.toString());

        assertThat(status).isZero();
        String text = Files.readString(markdown);
        assertThat(text).startsWith("intro\n").endsWith("<!-- report:end -->\noutro\n");
        // The median of 250k, 260k, 270k, with the range, beside the whitepaper's 2-vCPU relay.
        assertThat(text)
                .contains("| 1 relay | 600,000 × 1,100 B, 70/20/10, 3 tables, 100/tx | 3 |")
                .contains("**260,000** (250,000–270,000)")
                .doesNotContain("999,999")
                .contains("single relay 2-cpu (1 x n1-standard-2) | 30,750 | 338 | 1.80 (0.90)")
                .contains("3 relays 8-cpu (3 x n1-standard-8) | 164,367")
                .contains("ratio **0.923**")
                .contains(
                        "![Stage 1: binlog → relays (whitepaper Table 1)](charts/stage1-relays.png)");
        BufferedImage chart = ImageIO.read(charts.resolve("stage1-relays.png").toFile());
        assertThat(chart.getWidth()).isEqualTo(960);
        assertThat(chart.getHeight()).isEqualTo(540);
    }

    private static String line(String configuration, int relays, long rate, String policies) {
        return String.format(
                "{\"stage\":\"stage1\",\"time\":\"2026-11-21T12:00:00Z\",\"cores\":2,\"cpuModel\":\"test\","
                        + "\"configuration\":\"%s\",\"relays\":%d,\"policies\":\"%s\",\"source\":\"private MariaDB\","
                        + "\"records\":600000,\"recordSize\":1100,\"tables\":3,\"mix\":\"70/20/10\","
                        + "\"transactionSize\":100,\"events\":600000,\"expectedEvents\":600000,\"countsMatch\":true,"
                        + "\"seconds\":%.3f,\"eventsPerSec\":%d,\"mbPerSec\":300.0,\"cpu\":1.5,\"cpuLoad\":0.75,"
                        + "\"ratio\":0.6,\"heapMax\":300000000}",
                configuration, relays, policies, 600_000.0 / rate, rate);
    }
}
