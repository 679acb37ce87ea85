package io.changegrid.deploy.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.checkpoint.PartitionCheckpoint;
import io.changegrid.consumer.group.cli.ClusterStatusCommand;
import io.changegrid.consumer.group.cluster.ClusterView;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import io.changegrid.gridkit.server.ProcessLiveness;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * A local multi-process cluster for a test class, driven through {@code
 * deploy/bin/local-cluster.sh} as an operator would: the script starts ZooKeeper, the private
 * source, the relays and the consumer group as separate JVMs; the test then kills, pauses and adds
 * processes by their pid files, writes to the source over JDBC and reads what the consumers wrote.
 */
final class LocalClusterFixture implements AutoCloseable {

    static final String GROUP = "it";
    private static final Path SCRIPT = Path.of("bin", "local-cluster.sh").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final java.util.Set<String> ROW_CHANGES =
            java.util.Set.of("INSERT", "UPDATE", "DELETE");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final ClusterDirectory directory;
    private final int partitions;
    private final Duration sessionTimeout;
    private final ZooKeeperSession zooKeeper;
    private final ClusterView view;
    private final Thread stopOnExit;
    private final Properties jvmProperties; // restored at close: a secured grid changes them

    private LocalClusterFixture(ClusterDirectory directory, int partitions, Duration sessionTimeout)
            throws Exception {
        this.directory = directory;
        this.partitions = partitions;
        this.sessionTimeout = sessionTimeout;
        this.jvmProperties = (Properties) System.getProperties().clone();
        if (Boolean.parseBoolean(directory.plan().getProperty("secure", "false"))) {
            // The grid's ZooKeeper speaks only TLS; Helix's views read the JVM's properties.
            ClusterSecurity.of(directory).zooKeeperTls().applyToJvm();
        }
        this.zooKeeper =
                ZooKeeperSession.open(directory.zooKeeperConnect(), Duration.ofSeconds(10));
        this.view = ClusterView.connect(directory.zooKeeperConnect(), GROUP);
        this.stopOnExit = new Thread(this::stopQuietly, "local-cluster-stop");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /** Starts a cluster of two relays and {@code consumers} members in {@code root}. */
    static LocalClusterFixture start(
            Path root, int consumers, int partitions, Duration sessionTimeout) throws Exception {
        return start(root, consumers, partitions, sessionTimeout, List.of());
    }

    /** As above, with more options of {@code start}, e.g. {@code --secure}. */
    static LocalClusterFixture start(
            Path root, int consumers, int partitions, Duration sessionTimeout, List<String> options)
            throws Exception {
        ClusterDirectory directory = new ClusterDirectory(root);
        try {
            List<String> args =
                    new ArrayList<>(
                            List.of(
                                    "start",
                                    "--consumers",
                                    Integer.toString(consumers),
                                    "--partitions",
                                    Integer.toString(partitions),
                                    "--group",
                                    GROUP,
                                    "--session-timeout",
                                    sessionTimeout.toMillis() + "ms",
                                    "--heartbeat",
                                    "200ms",
                                    // No test looks at the console: one JVM fewer on two cores.
                                    "--no-console",
                                    // Fewer JIT threads: six JVMs share two cores in these tests.
                                    "--java-options",
                                    "-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"));
            args.addAll(options);
            script(directory, args.toArray(String[]::new));
            return new LocalClusterFixture(directory, partitions, sessionTimeout);
        } catch (Exception | Error e) {
            script(directory, "stop");
            throw e;
        }
    }

    Duration sessionTimeout() {
        return sessionTimeout;
    }

    int partitions() {
        return partitions;
    }

    ClusterDirectory directory() {
        return directory;
    }

    /** Starts one more group member through the script. */
    void addConsumer(String instance) throws Exception {
        script(directory, "add-consumer", "--name", instance);
    }

    /**
     * {@code kill -9}: no shutdown hook, nothing flushed, its sessions left to expire. Returns once
     * the process has exited, reaped or not ({@link ProcessLiveness#running}).
     */
    void kill(String name) throws Exception {
        ProcessHandle process = process(name);
        process.destroyForcibly();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ProcessLiveness.running(process)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not ended after kill -9: process=" + name);
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /**
     * {@code kill -STOP}: frozen as in a long GC pause, its sockets open. Returns once the process
     * is stopped, not only signalled.
     */
    void pause(String name) throws Exception {
        ProcessHandle process = process(name);
        signal(name, "STOP");
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!processState(stat).equals("T")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not stopped after kill -STOP: process=" + name);
            }
            Thread.onSpinWait();
        }
    }

    /** The state letter of {@code /proc/<pid>/stat} (after the parenthesised command name). */
    private static String processState(Path stat) throws IOException {
        String line = Files.readString(stat);
        return line.substring(line.lastIndexOf(')') + 2, line.lastIndexOf(')') + 3);
    }

    /** {@code kill -CONT}. */
    void resume(String name) throws Exception {
        signal(name, "CONT");
    }

    private void signal(String name, String signal) throws Exception {
        Process kill =
                new ProcessBuilder("kill", "-" + signal, Long.toString(process(name).pid()))
                        .inheritIO()
                        .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " failed: process=" + name);
        }
    }

    private ProcessHandle process(String name) {
        return ChildProcess.find(directory, name)
                .orElseThrow(() -> new IllegalStateException("not running: " + name));
    }

    /** Who owns which partition, as Helix records it. */
    GroupAssignment assignment() {
        return view.read();
    }

    /** The partition's node in ZooKeeper: checkpoint, epoch, last writer. */
    PartitionCheckpoint checkpoint(int partition) throws Exception {
        return new GroupCheckpoints(zooKeeper, GROUP).read(partition).orElseThrow();
    }

    /**
     * Follows the checkpoint nodes of the partitions in {@code epochs} until the next owner of each
     * has claimed it (its epoch is above the one given), and returns the last checkpoint seen under
     * the old owner's epoch: the old owner's last save. A claim keeps the checkpoint, and a save
     * the old owner had sent just before it died or froze lands within milliseconds, while a claim
     * waits for the old owner's session to expire first; read once, right after the kill, the node
     * could still miss such a save.
     *
     * @param epochs the old owner's epoch of each partition
     */
    Map<Integer, PartitionCheckpoint> lastCheckpointsUnder(Map<Integer, Long> epochs)
            throws Exception {
        Map<Integer, PartitionCheckpoint> last = new HashMap<>();
        Set<Integer> open = new HashSet<>(epochs.keySet());
        long deadline = System.nanoTime() + sessionTimeout.plusSeconds(30).toNanos();
        GroupCheckpoints checkpoints = new GroupCheckpoints(zooKeeper, GROUP);
        while (!open.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("partitions not claimed in time: " + open);
            }
            for (Iterator<Integer> it = open.iterator(); it.hasNext(); ) {
                int partition = it.next();
                PartitionCheckpoint node = checkpoints.read(partition).orElseThrow();
                if (node.epoch() == epochs.get(partition)) {
                    last.put(partition, node);
                } else {
                    it.remove();
                }
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return last;
    }

    /**
     * {@code consumer cluster status} for the group, as an operator runs it.
     *
     * @return its exit status, a line break, and what it printed
     */
    String clusterStatus(String... options) throws IOException {
        StringWriter out = new StringWriter();
        CommandLine command =
                new CommandLine(new ClusterStatusCommand()).setOut(new PrintWriter(out));
        List<String> args =
                new ArrayList<>(
                        List.of("--zookeeper", directory.zooKeeperConnect(), "--group", GROUP));
        args.addAll(List.of(options));
        int status = command.execute(args.toArray(String[]::new));
        return status + "\n" + out;
    }

    /** A member's {@code GET /v1/status} document, or null if it does not answer. */
    JsonNode status(String instance) throws Exception {
        String url = directory.plan().getProperty("consumer." + instance + ".status");
        try {
            HttpResponse<String> response =
                    HTTP.send(
                            HttpRequest.newBuilder(URI.create(url + "/v1/status"))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The entry of {@code partition} in its owner's status, or null. */
    JsonNode partitionStatus(String instance, int partition) throws Exception {
        JsonNode status = status(instance);
        if (status == null) {
            return null;
        }
        for (JsonNode entry : status.path("partitions")) {
            if (entry.path("partition").asInt() == partition) {
                return entry;
            }
        }
        return null;
    }

    /** A root connection to the private source. */
    Connection source() throws Exception {
        Properties source = directory.source();
        Properties credentials = new Properties();
        credentials.setProperty("user", source.getProperty("rootUser"));
        credentials.setProperty("password", source.getProperty("rootPassword"));
        return DriverManager.getConnection(
                "jdbc:mariadb://"
                        + source.getProperty("host")
                        + ":"
                        + source.getProperty("port")
                        + "/",
                credentials);
    }

    /** One row event a member's jsonl callback wrote. */
    record Written(String instance, int partition, long scn, int index, String op, long id) {}

    /**
     * Every row change of {@code table} written by any member so far (a torn last line skipped).
     */
    List<Written> written(String table) throws IOException {
        List<Written> all = new ArrayList<>();
        try (Stream<Path> files = Files.walk(directory.root())) {
            for (Path file :
                    files.filter(f -> f.getFileName().toString().matches("events\\.p\\d+\\.jsonl"))
                            .toList()) {
                String instance =
                        file.getParent().getFileName().toString().substring("consumer-".length());
                String name = file.getFileName().toString();
                int partition =
                        Integer.parseInt(
                                name.substring(
                                        "events.p".length(), name.length() - ".jsonl".length()));
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    JsonNode event;
                    try {
                        event = JSON.readTree(line);
                    } catch (IOException e) {
                        continue; // the line being written now
                    }
                    if (event == null
                            || !table.equals(event.path("table").asText())
                            || !ROW_CHANGES.contains(event.path("op").asText())) {
                        continue; // a table's DDL goes to every partition
                    }
                    all.add(
                            new Written(
                                    instance,
                                    partition,
                                    event.path("scn").asLong(),
                                    event.path("index").asInt(),
                                    event.path("op").asText(),
                                    event.path("key").path("id").asLong()));
                }
            }
        }
        return all;
    }

    /** Runs the script; its output goes to the test's log. */
    static void script(ClusterDirectory directory, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--dir", directory.root().toString()));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        Map<String, String> environment = builder.environment();
        environment.put("CHANGEGRID_CLASSPATH", System.getProperty("java.class.path"));
        Process process = builder.start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    "local-cluster.sh " + args[0] + " did not finish in time");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "local-cluster.sh " + args[0] + " failed: exit=" + process.exitValue());
        }
    }

    /** The tail of a process's log, for failure messages. */
    String logTail(String name) throws IOException {
        return ChildProcess.logTail(directory, name);
    }

    private void stopQuietly() {
        try {
            script(directory, "stop");
        } catch (Exception e) {
            System.err.println("local cluster not stopped: " + directory.root() + ": " + e);
        }
    }

    @Override
    public void close() {
        view.close();
        zooKeeper.close();
        System.setProperties(jvmProperties);
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            return; // the JVM is shutting down and the hook stops the cluster
        }
        stopQuietly();
    }
}
