package io.changegrid.bench.cluster;

import io.changegrid.consumer.group.checkpoint.PartitionCheckpoint;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import io.changegrid.gridkit.load.PacedLoad;
import io.changegrid.gridkit.server.EmbeddedZooKeeper;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Consumer group figures on this machine, with a private MariaDB, an in-process ZooKeeper and
 * relay, and group members as separate JVMs ({@code ConsumerMain}, counting callback):
 *
 * <ul>
 *   <li><b>Throughput with 1, 2, 3 members</b>: rows preloaded into the binlog and relayed first;
 *       then a fresh group of k members (quorum k, so the first assignment is already balanced)
 *       consumes them all, timed from the moment every partition has an owner to the moment every
 *       partition's checkpoint in ZooKeeper reached the relay's newest SCN.
 *   <li><b>Crash to flowing again</b>: three members under a steady load; one is killed ({@code
 *       kill -9}); timed until every partition it owned has a new owner that saved a checkpoint
 *       past the dead owner's last one. A new member then joins and the group rebalances before the
 *       next run.
 * </ul>
 *
 * <pre>
 * bin/bench cluster \
 *      --rows 600000 --members 1,2,3 --crash-runs 3 --session-timeout 10s
 * </pre>
 */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = "Consumer group throughput with 1..n members, and crash-to-flowing time.")
public final class ClusterCommand implements Callable<Integer> {

    @Option(
            names = "--rows",
            description = "Rows preloaded for throughput. Default: ${DEFAULT-VALUE}.")
    int rows = 600_000;

    @Option(
            names = "--rows-per-transaction",
            description = "Rows per preloaded transaction. Default: ${DEFAULT-VALUE}.")
    int rowsPerTransaction = 10;

    @Option(
            names = "--partitions",
            description = "Partitions of each group. Default: ${DEFAULT-VALUE}.")
    int partitions = 12;

    @Option(
            names = "--members",
            split = ",",
            description = "Group sizes measured for throughput. Default: ${DEFAULT-VALUE}.")
    List<Integer> members = List.of(1, 2, 3);

    @Option(
            names = "--repeat",
            description =
                    "Throughput runs per group size (a fresh group each). Default: ${DEFAULT-VALUE}.")
    int repeat = 3;

    @Option(names = "--crash-runs", description = "Crashes measured. Default: ${DEFAULT-VALUE}.")
    int crashRuns = 3;

    @Option(
            names = "--session-timeout",
            description = "Members' ZooKeeper session timeout, seconds. Default: ${DEFAULT-VALUE}.")
    int sessionTimeoutSeconds = 10;

    @Option(
            names = "--rate",
            description =
                    "Transactions per second during the crash runs. Default: ${DEFAULT-VALUE}.")
    int rate = 200;

    @Option(names = "--dir", description = "Work directory. Default: ${DEFAULT-VALUE}.")
    Path directory = Path.of("target", "cluster-bench");

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(directory);
        System.out.printf(
                "cluster bench: %d cores, rows=%d in transactions of %d, partitions=%d%n",
                Runtime.getRuntime().availableProcessors(), rows, rowsPerTransaction, partitions);
        try (EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start();
                MariaDbServer source = MariaDbServer.start(MariaDbConfig.defaults())) {
            try (Connection connection = source.connect()) {
                createTable(connection);
                preload(connection);
            }
            Relay relay = Relay.start(relaySettings(source, zooKeeper.connectString()));
            try {
                long transactions = (rows + rowsPerTransaction - 1) / rowsPerTransaction;
                awaitTrue(
                        Duration.ofMinutes(10),
                        () -> relay.buffer().transactionsAppended() >= transactions);
                String relayUrl = "http://127.0.0.1:" + relay.httpPort();
                List<String> lines = new ArrayList<>();
                if (repeat > 0) {
                    // The relay shares this JVM: one unreported run warms its stream path up.
                    throughput(
                            members.get(members.size() - 1),
                            0,
                            zooKeeper.connectString(),
                            relayUrl,
                            relay);
                }
                Map<Integer, List<Double>> rates = new TreeMap<>();
                for (int run = 1; run <= repeat; run++) {
                    for (int size : members) {
                        rates.computeIfAbsent(size, k -> new ArrayList<>())
                                .add(
                                        throughput(
                                                size,
                                                run,
                                                zooKeeper.connectString(),
                                                relayUrl,
                                                relay));
                    }
                }
                rates.forEach((size, measured) -> lines.add(summary(size, measured)));
                if (crashRuns > 0) {
                    try (Connection connection = source.connect()) {
                        lines.addAll(crashes(zooKeeper.connectString(), relayUrl, connection));
                    }
                }
                System.out.println();
                lines.forEach(System.out::println);
            } finally {
                relay.close();
            }
        }
        return 0;
    }

    private static String summary(int size, List<Double> measured) {
        List<Double> sorted = new ArrayList<>(measured);
        Collections.sort(sorted);
        return String.format(
                "throughput members=%d: median %,.0f rows/s over %d runs %s",
                size,
                sorted.get(sorted.size() / 2),
                sorted.size(),
                measured.stream().map(rate -> String.format("%,.0f", rate)).toList());
    }

    /**
     * One run of a fresh group of {@code size} members over every preloaded row: rows per second.
     */
    private double throughput(int size, int run, String zooKeeper, String relayUrl, Relay relay)
            throws Exception {
        String name = "throughput-" + size + "-" + run;
        long newest = relay.buffer().newestScn();
        try (GroupMembers fleet =
                new GroupMembers(
                        directory.resolve(name),
                        zooKeeper,
                        relayUrl,
                        name,
                        partitions,
                        Duration.ofSeconds(sessionTimeoutSeconds),
                        size)) {
            // The quorum holds every partition back until all members are up, so the clock
            // starts on a balanced group, not on the first member taking everything.
            for (int i = 1; i <= size; i++) {
                fleet.start("m" + i);
            }
            try (GroupProbe probe = openProbe(zooKeeper, name)) {
                return measureThroughput(size, newest, probe);
            }
        }
    }

    private double measureThroughput(int size, long newest, GroupProbe probe) throws Exception {
        awaitTrue(
                Duration.ofMinutes(2),
                () -> {
                    GroupAssignment now = probe.assignment();
                    return now.members().size() == size && now.owners().size() == partitions;
                });
        long start = System.nanoTime();
        awaitTrue(Duration.ofMinutes(10), () -> probe.allAtLeast(newest));
        double seconds = (System.nanoTime() - start) / 1e9;
        String line =
                String.format(
                        "throughput run: members=%d  rows=%d  seconds=%.2f  rows/s=%,.0f  partitions/member=%s",
                        size,
                        rows,
                        seconds,
                        rows / seconds,
                        probe.assignment().partitionsByMember().values().stream()
                                .map(List::size)
                                .toList());
        System.out.println(line);
        return rows / seconds;
    }

    private List<String> crashes(String zooKeeper, String relayUrl, Connection connection)
            throws Exception {
        String name = "crash";
        List<String> lines = new ArrayList<>();
        List<Long> millis = new ArrayList<>();
        try (PacedLoad load = steadyLoad(connection);
                GroupMembers fleet =
                        new GroupMembers(
                                directory.resolve(name),
                                zooKeeper,
                                relayUrl,
                                name,
                                partitions,
                                Duration.ofSeconds(sessionTimeoutSeconds),
                                3)) {
            List<String> live = new ArrayList<>(List.of("m1", "m2", "m3"));
            for (String member : live) {
                fleet.start(member);
            }
            try (GroupProbe probe = openProbe(zooKeeper, name)) {
                measureCrashes(fleet, probe, live, millis, lines);
            }
            if (load.failure().isPresent()) {
                throw new IllegalStateException("steady load failed", load.failure().get());
            }
        }
        Collections.sort(millis);
        lines.add(
                String.format(
                        "crash to flowing: runs=%d  min=%d ms  median=%d ms  max=%d ms  sessionTimeout=%d s  load=%d tx/s",
                        millis.size(),
                        millis.get(0),
                        millis.get(millis.size() / 2),
                        millis.get(millis.size() - 1),
                        sessionTimeoutSeconds,
                        rate));
        return lines;
    }

    private void measureCrashes(
            GroupMembers fleet,
            GroupProbe probe,
            List<String> live,
            List<Long> millis,
            List<String> lines)
            throws Exception {
        int next = 4;
        for (int run = 1; run <= crashRuns; run++) {
            awaitBalanced(probe, live);
            String victim = live.remove(0);
            List<Integer> orphans = probe.ownedBy(victim);
            long killed = System.nanoTime();
            fleet.kill(victim);
            Map<Integer, Long> atKill = new HashMap<>();
            for (Map.Entry<Integer, PartitionCheckpoint> node : probe.checkpoints().entrySet()) {
                atKill.put(node.getKey(), node.getValue().scn());
            }
            awaitTrue(
                    Duration.ofSeconds(sessionTimeoutSeconds + 60L),
                    () -> {
                        Map<Integer, PartitionCheckpoint> now = probe.checkpoints();
                        for (int partition : orphans) {
                            PartitionCheckpoint node = now.get(partition);
                            if (node.owner().equals(victim)
                                    || node.scn() <= atKill.get(partition)) {
                                return false;
                            }
                        }
                        return true;
                    });
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            millis.add(elapsed);
            String line =
                    String.format(
                            "crash run %d: %d partitions of %s flowing again after %d ms (session timeout %d s)",
                            run, orphans.size(), victim, elapsed, sessionTimeoutSeconds);
            System.out.println(line);
            lines.add(line);
            String replacement = "m" + next++;
            fleet.start(replacement);
            live.add(replacement);
        }
    }

    /** Every live member owns its share and every partition's checkpoint moves. */
    private void awaitBalanced(GroupProbe probe, List<String> live) throws Exception {
        awaitTrue(
                Duration.ofMinutes(2),
                () -> {
                    GroupAssignment now = probe.assignment();
                    return now.members().size() == live.size()
                            && now.owners().size() == partitions
                            && now.partitionsByMember().values().stream()
                                    .allMatch(owned -> owned.size() == partitions / live.size());
                });
        Map<Integer, Long> before = new HashMap<>();
        probe.checkpoints().forEach((partition, node) -> before.put(partition, node.scn()));
        awaitTrue(
                Duration.ofMinutes(1),
                () ->
                        probe.checkpoints().entrySet().stream()
                                .allMatch(
                                        e ->
                                                e.getValue().scn()
                                                        > before.getOrDefault(e.getKey(), -1L)));
    }

    /** A probe of the group, once its first member made its Helix cluster. */
    private GroupProbe openProbe(String zooKeeper, String group) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try {
                return new GroupProbe(zooKeeper, group, partitions);
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            }
        }
    }

    private void createTable(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE bench");
            statement.execute(
                    "CREATE TABLE bench.rows (id BIGINT PRIMARY KEY, amount DECIMAL(12,2), note VARCHAR(64))");
        }
    }

    private void preload(Connection connection) throws Exception {
        long started = System.nanoTime();
        connection.setAutoCommit(false);
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO bench.rows VALUES (?, ?, ?)")) {
            for (int id = 1; id <= rows; id++) {
                insert.setLong(1, id);
                insert.setBigDecimal(2, java.math.BigDecimal.valueOf(id % 100_000, 2));
                insert.setString(3, "row " + id);
                insert.addBatch();
                if (id % rowsPerTransaction == 0 || id == rows) {
                    insert.executeBatch();
                    connection.commit();
                }
            }
        }
        connection.setAutoCommit(true);
        System.out.printf(
                "preloaded %d rows in %.1f s%n", rows, (System.nanoTime() - started) / 1e9);
    }

    /**
     * Single-row transactions at {@link #rate} per second with ids above the preloaded ones, until
     * closed.
     */
    private PacedLoad steadyLoad(Connection connection) throws SQLException {
        PreparedStatement insert =
                connection.prepareStatement("INSERT INTO bench.rows VALUES (?, 1.00, 'steady')");
        return PacedLoad.start(
                "steady",
                Long.MAX_VALUE,
                rate,
                new PacedLoad.Transaction() {
                    @Override
                    public long run(long number) throws SQLException {
                        insert.setLong(1, rows + number);
                        return insert.executeUpdate();
                    }

                    @Override
                    public void close() throws SQLException {
                        insert.close();
                    }
                });
    }

    private io.changegrid.config.Config relaySettings(MariaDbServer source, String zooKeeper) {
        Map<String, String> settings = new HashMap<>();
        settings.put("source.host", source.host());
        settings.put("source.port", Integer.toString(source.port()));
        settings.put("source.user", source.user());
        settings.put("source.password", source.password());
        settings.put("source.start", "earliest");
        settings.put("source.heartbeatInterval", "200ms");
        settings.put("capture.include", "bench.*");
        settings.put("buffer.capacity", "512MiB");
        settings.put("buffer.segmentSize", "16MiB");
        settings.put("state.directory", directory.resolve("relay-state").toString());
        settings.put("http.port", "0");
        settings.put("cluster.zookeeper", zooKeeper);
        return RelaySettings.load(Map.of(), settings);
    }

    private static void awaitTrue(Duration timeout, Check check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached in time: timeout=" + timeout);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /** A condition polled every 20 ms. */
    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }
}
