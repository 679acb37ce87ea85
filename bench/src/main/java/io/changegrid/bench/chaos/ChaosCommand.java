package io.changegrid.bench.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.bench.harness.WorkDirectory;
import io.changegrid.gridkit.server.FreePort;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The chaos run: a private MariaDB under a steady mixed load ({@link ChaosLoad}), ZooKeeper, two
 * relays and a group of appliers into a fresh PostgreSQL database, each its own process; for {@code
 * --duration} the {@link ChaosMonkey} kills one of them with SIGKILL at seeded random moments and
 * starts it again. Then the load stops, everything is up, and the run waits until the target equals
 * the source ({@link TableDiff}, every row by key), reporting kills per component, rows lost, extra
 * and differing, changes applied twice ({@link RepeatWatch}), and the time to drain.
 *
 * <pre>
 * bin/bench chaos --duration 10m --seed 7
 * </pre>
 *
 * Exit status 0 when the target equals the source and no change was applied twice, 1 when a row is
 * lost, extra or differs, a change was applied twice, or the drain did not finish in {@code
 * --drain-timeout}.
 */
@Command(
        name = "chaos",
        mixinStandardHelpOptions = true,
        description =
                "Kills relays, appliers, ZooKeeper and the source at random under load; then the"
                        + " target must equal the source.")
public final class ChaosCommand implements Callable<Integer> {

    @Option(
            names = "--duration",
            description = "How long components are killed, e.g. 120s, 10m (default 2m).")
    String duration = "2m";

    @Option(
            names = "--seed",
            description = "Seed of the kills and the load (default: a random one, printed).")
    Long seed;

    @Option(names = "--rate", description = "Source transactions per second (default 40).")
    int rate = 40;

    @Option(names = "--appliers", description = "Applier group members (default 3).")
    int appliers = 3;

    @Option(names = "--partitions", description = "Partitions of the group (default 6).")
    int partitions = 6;

    @Option(
            names = "--gap",
            description = "Seconds between a restart and the next kill, min,max (default 4,10).",
            split = ",")
    List<Integer> gap = List.of(4, 10);

    @Option(
            names = "--down",
            description = "Seconds a killed component stays down, min,max (default 1,5).",
            split = ",")
    List<Integer> down = List.of(1, 5);

    @Option(
            names = "--drain-timeout",
            description = "Longest wait for the target to equal the source (default 5m).")
    String drainTimeout = "5m";

    @Option(names = "--results", description = "Results file (default bench/results/chaos.jsonl).")
    Path results = Path.of("bench/results/chaos.jsonl");

    @Override
    public Integer call() throws Exception {
        long chosenSeed = seed != null ? seed : new java.security.SecureRandom().nextLong();
        Duration chaos = parse(duration);
        System.out.printf(
                Locale.ROOT,
                "chaos: seed=%d duration=%d s rate=%d tx/s relays=2 appliers=%d partitions=%d"
                        + " cores=%d%n",
                chosenSeed,
                chaos.toSeconds(),
                rate,
                appliers,
                partitions,
                Runtime.getRuntime().availableProcessors());
        try (WorkDirectory work = WorkDirectory.create("chaos");
                MariaDbServer source = MariaDbServer.start(MariaDbConfig.defaults());
                PostgresDatabase target = PostgresDatabase.create()) {
            System.out.println(
                    "chaos: work directory " + work.path() + ", target " + target.jdbcUrl());
            try (Connection connection = source.connect()) {
                ChaosLoad.createSchema(connection);
            }
            int zooKeeperPort = FreePort.pick();
            GridNodes nodes =
                    new GridNodes(
                            work.path(),
                            source,
                            target,
                            FreePort.HOST + ":" + zooKeeperPort,
                            List.of(FreePort.pick(), FreePort.pick()),
                            partitions);
            Map<String, List<ChaosTarget>> kinds = new LinkedHashMap<>();
            try {
                ChildJvm zooKeeper =
                        ZooKeeperNode.create(work.path().resolve("zookeeper"), zooKeeperPort);
                kinds.put("zookeeper", List.of(zooKeeper));
                zooKeeper.start();
                ZooKeeperNode.awaitListening(zooKeeperPort, Duration.ofMinutes(1));
                kinds.put("relay", List.of(nodes.relay(0), nodes.relay(1)));
                List<ChaosTarget> members = new ArrayList<>();
                for (int i = 0; i < appliers; i++) {
                    members.add(nodes.applier(i));
                }
                kinds.put("applier", members);
                for (ChaosTarget each : kinds.get("relay")) {
                    each.start();
                }
                for (ChaosTarget each : members) {
                    each.start();
                }
                kinds.put("source", List.of(new SourceTarget(source)));
                ObjectNode line = runChaos(chosenSeed, chaos, source, target, kinds);
                ResultFile.append(results, line);
                boolean equal = line.get("ok").asBoolean();
                if (equal) {
                    work.succeeded();
                }
                return equal ? 0 : 1;
            } finally {
                // Appliers first, then relays, then ZooKeeper: each stops after its final
                // checkpoint. The members of one kind stop together: one at a time, each applier
                // leaving would hand its partitions to the ones still running, and each would
                // wait out the one before.
                for (String kind : List.of("applier", "relay", "zookeeper")) {
                    closeTogether(kinds.getOrDefault(kind, List.of()));
                }
            }
        }
    }

    private ObjectNode runChaos(
            long chosenSeed,
            Duration chaos,
            MariaDbServer source,
            PostgresDatabase target,
            Map<String, List<ChaosTarget>> kinds)
            throws Exception {
        long started = System.nanoTime();
        Drain drain = new Drain(source, target);
        drain.awaitPreload(Duration.ofMinutes(3));
        try (Connection to = target.connect()) {
            RepeatWatch.install(to);
        }
        System.out.printf(
                Locale.ROOT,
                "chaos: grid flowing (preloaded rows in the target) after %.1f s; load and kills"
                        + " begin%n",
                (System.nanoTime() - started) / 1e9);
        ChaosLoad load =
                new ChaosLoad(
                        source.jdbcUrl("") + "?connectTimeout=2000&socketTimeout=60000",
                        source.rootUser(),
                        source.rootPassword(),
                        chosenSeed,
                        rate,
                        chaos.toSeconds() / 2);
        load.start();
        ChaosMonkey monkey =
                new ChaosMonkey(
                        kinds,
                        chosenSeed,
                        Duration.ofSeconds(gap.get(0)),
                        Duration.ofSeconds(gap.get(1)),
                        Duration.ofSeconds(down.get(0)),
                        Duration.ofSeconds(down.get(1)));
        try {
            monkey.run(chaos);
        } finally {
            load.stop();
        }
        monkey.reviveAll();
        System.out.printf(
                Locale.ROOT,
                "chaos: load stopped: transactions committed=%d, broken by a kill=%d, large=%d,"
                        + " ADD COLUMN at %d s; draining%n",
                load.committed(),
                load.broken(),
                load.large(),
                load.ddlSeconds());
        Drain.Result result = drain.untilEqual(parse(drainTimeout), monkey::reviveAll);
        RepeatWatch.Repeats repeats;
        try (Connection to = target.connect()) {
            repeats = RepeatWatch.read(to);
        }
        return report(chosenSeed, chaos, load, monkey, result, repeats);
    }

    private ObjectNode report(
            long chosenSeed,
            Duration chaos,
            ChaosLoad load,
            ChaosMonkey monkey,
            Drain.Result result,
            RepeatWatch.Repeats repeats) {
        ObjectNode line = ResultFile.newLine("chaos");
        line.put("seed", chosenSeed);
        line.put("durationSeconds", chaos.toSeconds());
        line.put("rate", rate);
        line.put("appliers", appliers);
        line.put("partitions", partitions);
        ObjectNode kills = line.putObject("kills");
        monkey.kills().forEach(kills::put);
        line.put("unexpectedExits", monkey.unexpectedExits());
        line.put("transactions", load.committed());
        line.put("brokenTransactions", load.broken());
        line.put("largeTransactions", load.large());
        line.put("ddlAtSeconds", load.ddlSeconds());
        long lost = 0;
        long extra = 0;
        long differing = 0;
        var tables = line.putArray("tables");
        for (TableDiff diff : result.diffs()) {
            lost += diff.lost();
            extra += diff.extra();
            differing += diff.differing();
            tables.add(ResultFile.JSON.valueToTree(diff));
        }
        line.put("rowsLost", lost);
        line.put("rowsExtra", extra);
        line.put("rowsDiffering", differing);
        line.put("drainSeconds", ResultFile.round(result.seconds(), 1));
        line.put("equal", result.equal());
        line.put("changesAppliedTwice", repeats.count());
        boolean ok = result.equal() && repeats.count() == 0;
        line.put("ok", ok);
        System.out.println();
        System.out.println(
                "chaos: seed "
                        + chosenSeed
                        + ", kills "
                        + monkey.kills()
                        + ", unexpected exits "
                        + monkey.unexpectedExits());
        for (TableDiff diff : result.diffs()) {
            System.out.printf(
                    Locale.ROOT,
                    "chaos: %-16s source rows=%d target rows=%d lost=%d extra=%d differing=%d"
                            + " sha256 %s %s%n",
                    diff.table(),
                    diff.sourceRows(),
                    diff.targetRows(),
                    diff.lost(),
                    diff.extra(),
                    diff.differing(),
                    diff.sourceSha256().substring(0, 12),
                    diff.sourceSha256().equals(diff.targetSha256())
                            ? "= target"
                            : "!= target " + diff.targetSha256().substring(0, 12));
            if (!diff.examples().isEmpty()) {
                System.out.println("chaos:   e.g. " + diff.examples());
            }
        }
        if (repeats.count() > 0) {
            System.out.println("chaos:   changes applied twice, e.g. " + repeats.examples());
        }
        System.out.printf(
                Locale.ROOT,
                "chaos: %s: rows lost=%d extra=%d differing=%d, changes applied twice=%d, drained"
                        + " in %.1f s%n",
                ok ? "OK" : "FAILED",
                lost,
                extra,
                differing,
                repeats.count(),
                result.seconds());
        return line;
    }

    /** Closes {@code targets} each on its own thread and returns when all are closed. */
    private static void closeTogether(List<ChaosTarget> targets) throws InterruptedException {
        List<Thread> closing = new ArrayList<>();
        for (ChaosTarget target : targets) {
            Thread thread = new Thread(target::close, "close-" + target.name());
            thread.start();
            closing.add(thread);
        }
        for (Thread thread : closing) {
            thread.join();
        }
    }

    /** {@code 90s}, {@code 10m}, {@code 1h}. */
    static Duration parse(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        if (!trimmed.matches("\\d+[smh]")) {
            throw new IllegalArgumentException("not a duration (e.g. 90s, 10m): value=" + text);
        }
        long amount = Long.parseLong(trimmed.substring(0, trimmed.length() - 1));
        return switch (trimmed.charAt(trimmed.length() - 1)) {
            case 's' -> Duration.ofSeconds(amount);
            case 'm' -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }
}
