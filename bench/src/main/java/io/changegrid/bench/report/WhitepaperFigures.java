package io.changegrid.bench.report;

import java.util.List;
import java.util.Optional;

/**
 * The whitepaper's measured rows (Griddable.io, "Performance and Scalability", Tables 1-3; MySQL
 * 5.7 on its own 16-CPU VM, 4,800,000 records of ~1,100 bytes over 3 tables, Google Compute Engine
 * n1-standard VMs), as data for the side-by-side tables and charts.
 */
final class WhitepaperFigures {

    /**
     * One row of the whitepaper's tables.
     *
     * @param stage stage1, stage2 or e2e, as in our result lines
     * @param relays relays in the configuration (stage 2: the one preloaded relay)
     * @param consumers consumers (0 in stage 1)
     * @param configuration the whitepaper's own words
     * @param machine its VM type and count
     * @param cpuLoad its "CPU load" column (fraction of the VM), or NaN where not given
     * @param vcpus its "vCPUs" column: cores used, or NaN where not given
     * @param seconds duration
     * @param eventsPerSec rate ev/s
     * @param mbitPerSec rate Mbit/s
     */
    record Row(
            String stage,
            int relays,
            int consumers,
            String configuration,
            String machine,
            double cpuLoad,
            double vcpus,
            double seconds,
            long eventsPerSec,
            long mbitPerSec) {}

    static final List<Row> ROWS =
            List.of(
                    new Row(
                            "stage1",
                            1,
                            0,
                            "single relay 2-cpu",
                            "1 x n1-standard-2",
                            0.90,
                            1.80,
                            156.10,
                            30_750,
                            338),
                    new Row(
                            "stage1",
                            1,
                            0,
                            "single relay 4-cpu",
                            "1 x n1-standard-4",
                            0.78,
                            3.10,
                            112.78,
                            42_560,
                            468),
                    new Row(
                            "stage1",
                            1,
                            0,
                            "single relay 8-cpu",
                            "1 x n1-standard-8",
                            0.62,
                            4.97,
                            62.10,
                            77_295,
                            850),
                    new Row(
                            "stage1",
                            2,
                            0,
                            "2 relays 8-cpu",
                            "2 x n1-standard-8",
                            0.56,
                            8.88,
                            42.44,
                            113_114,
                            1_244),
                    new Row(
                            "stage1",
                            3,
                            0,
                            "3 relays 8-cpu",
                            "3 x n1-standard-8",
                            0.55,
                            13.15,
                            29.20,
                            164_367,
                            1_808),
                    new Row(
                            "stage2",
                            1,
                            1,
                            "single consumer 2 cpu",
                            "1 x n1-standard-2",
                            0.95,
                            1.90,
                            110.08,
                            43_605,
                            480),
                    new Row(
                            "stage2",
                            1,
                            1,
                            "single consumer 4 cpu",
                            "1 x n1-standard-4",
                            0.54,
                            2.17,
                            78.93,
                            60_815,
                            669),
                    new Row(
                            "stage2",
                            1,
                            2,
                            "2 consumers 8 cpu",
                            "1 x n1-standard-8",
                            0.59,
                            4.72,
                            52.88,
                            90_765,
                            998),
                    new Row(
                            "stage2",
                            1,
                            3,
                            "3 consumers 8 cpu",
                            "1 x n1-standard-8",
                            0.79,
                            6.32,
                            35.72,
                            134_378,
                            1_478),
                    new Row(
                            "e2e",
                            3,
                            3,
                            "3 relays, 3 consumers, 8 cpu",
                            "4 x n1-standard-8",
                            Double.NaN,
                            Double.NaN,
                            33.66,
                            142_602,
                            1_569));

    private WhitepaperFigures() {}

    /**
     * The whitepaper's row for the same configuration: the 2-vCPU row for single components (the
     * closest to this machine), the 8-vCPU rows for the scaled ones.
     */
    static Optional<Row> sameConfiguration(String stage, int relays, int consumers) {
        return ROWS.stream()
                .filter(row -> row.stage().equals(stage))
                .filter(
                        row ->
                                stage.equals("stage1")
                                        ? row.relays() == relays
                                        : row.consumers() == consumers)
                .filter(row -> !stage.equals("e2e") || row.relays() == relays)
                .findFirst();
    }

    /** Every row of one stage, for the reference tables. */
    static List<Row> of(String stage) {
        return ROWS.stream().filter(row -> row.stage().equals(stage)).toList();
    }
}
