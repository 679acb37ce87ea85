package io.changegrid.bench.relay;

import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.Partitioning;
import io.changegrid.gridkit.load.LoadShape;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** How the harness runs its relays, on the command line. */
public final class RelayOptions {

    private static final long SEGMENT = 64L << 20;
    private static final long INGEST_BUFFER_MAX = 2L << 30;

    @Option(
            names = "--relay-partitioning",
            description =
                    "How several relays split the source: table (the whitepaper's) or key."
                            + " Default: ${DEFAULT-VALUE}.")
    String partitioning = "table";

    @Option(
            names = "--relay-heap",
            description = "Each relay's heap (-Xmx, -Xms). Default: ${DEFAULT-VALUE}.")
    String heap = "512m";

    @Option(
            names = "--buffer-size",
            description =
                    "Each relay's event buffer in bytes (default: room for its share of the load).")
    Long bufferBytes;

    @Option(
            names = "--buffer-storage",
            description =
                    "Relay buffer segments: direct or mapped (in /dev/shm). Default: ${DEFAULT-VALUE}.")
    String storage = "direct";

    @Option(
            names = "--relay-java-options",
            split = " ",
            description =
                    "More JVM options for every relay; {relay} becomes the relay's number, {run}"
                            + " the run's name, e.g."
                            + " -XX:StartFlightRecording=filename={run}-relay-{relay}.jfr,settings=profile")
    List<String> javaOptions = new ArrayList<>();

    @Option(
            names = "--tls",
            description =
                    "Relays serve HTTPS only and want a bearer token (a local CA made for the run),"
                            + " and every consumer and poll of the harness uses them"
                            + " (docs/security.md).")
    boolean tls;

    @Option(
            names = "--relay-set",
            paramLabel = "KEY=VALUE",
            description =
                    "A relay setting for every relay, as the relay's --set takes it; repeatable,"
                            + " e.g. --relay-set source.fetchPipeline=false")
    List<String> settings = new ArrayList<>();

    /** Adds every problem of these options to {@code problems}. */
    public void check(OptionProblems problems) {
        problems.check(
                partitioning.equals("table") || partitioning.equals("key"),
                "--relay-partitioning",
                "expected table or key",
                partitioning);
        problems.check(
                storage.equals("direct") || storage.equals("mapped"),
                "--buffer-storage",
                "expected direct or mapped",
                storage);
        for (String setting : settings) {
            problems.check(setting.indexOf('=') > 0, "--relay-set", "expected KEY=VALUE", setting);
        }
        problems.check(
                bufferBytes == null || bufferBytes >= SEGMENT,
                "--buffer-size",
                "must be at least 64 MiB (one segment)",
                bufferBytes);
    }

    /** HTTPS and tokens with {@code --tls}, else {@link BenchTls#NONE}. */
    public BenchTls tls() {
        return tls ? BenchTls.shared() : BenchTls.NONE;
    }

    /** Each relay's heap, e.g. 512m. */
    public String heap() {
        return heap;
    }

    /** How several relays split the source. */
    public Partitioning partitioning() {
        return Partitioning.valueOf(partitioning.toUpperCase(java.util.Locale.ROOT));
    }

    /**
     * The plan of {@code relays} relays for {@code shape}, once {@link #check} found no problem.
     *
     * @param tableShare the largest share of the tables one relay gets when split by table
     * @param policies the user's policies, or empty
     */
    public RelayPlan plan(int relays, LoadShape shape, double tableShare, List<?> policies) {
        Partitioning split = partitioning();
        double share = relays == 1 ? 1 : split == Partitioning.TABLE ? tableShare : 1.0 / relays;
        long bytes = bufferBytes != null ? bufferBytes : autoBuffer(shape, share);
        return new RelayPlan(
                relays,
                split,
                policies,
                heap,
                roundUp(bytes),
                storage,
                javaOptions,
                tls(),
                settings);
    }

    /**
     * The same plan for relays whose buffers need not hold the whole load (stage 1: nobody reads
     * them; end to end: the consumers read as the relays fill them): a buffer wraps as a relay's
     * does, at most 2 GiB, so several relays of a full-size run fit in memory with the source and
     * its binlog in the page cache.
     */
    public RelayPlan ingestPlan(int relays, LoadShape shape, double tableShare, List<?> policies) {
        RelayPlan plan = plan(relays, shape, tableShare, policies);
        if (bufferBytes != null || plan.bufferBytes() <= INGEST_BUFFER_MAX) {
            return plan;
        }
        return new RelayPlan(
                relays,
                plan.partitioning(),
                policies,
                heap,
                INGEST_BUFFER_MAX,
                storage,
                javaOptions,
                plan.tls(),
                settings);
    }

    /** Room for a relay's share of the load's frames with a quarter to spare. */
    private static long autoBuffer(LoadShape shape, double share) {
        return Math.max(256L << 20, (long) (shape.frameBytes() * share * 1.25) + SEGMENT);
    }

    private static long roundUp(long bytes) {
        return (bytes + SEGMENT - 1) / SEGMENT * SEGMENT;
    }
}
