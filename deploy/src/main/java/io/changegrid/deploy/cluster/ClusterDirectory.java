package io.changegrid.deploy.cluster;

import io.changegrid.deploy.local.LocalSourceMain;
import io.changegrid.deploy.local.LocalZooKeeperMain;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;

/**
 * The working directory of a local cluster, and what it holds:
 *
 * <pre>
 * cluster.properties        the plan: group, partitions, timeouts, members and their endpoints
 * pids/&lt;name&gt;.pid          one per running process
 * logs/&lt;name&gt;.log          one per process
 * zookeeper/zookeeper.connect
 * source/source.properties  host, port, replication user, root user of the private MariaDB
 * relay-&lt;n&gt;/relay.yaml, state/
 * consumer-&lt;name&gt;/consumer.yaml, events.p&lt;partition&gt;.jsonl
 * </pre>
 *
 * Process names: {@code zookeeper}, {@code source}, {@code relay-1}.., and the consumers' instance
 * names ({@code c1}..).
 */
public final class ClusterDirectory {

    private static final String PLAN = "cluster.properties";

    private final Path root;

    public ClusterDirectory(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public Path pidFile(String name) {
        return root.resolve("pids").resolve(name + ".pid");
    }

    public Path log(String name) {
        return root.resolve("logs").resolve(name + ".log");
    }

    public Path zooKeeperDirectory() {
        return root.resolve("zookeeper");
    }

    public Path sourceDirectory() {
        return root.resolve("source");
    }

    public Path relayDirectory(String name) {
        return root.resolve(name);
    }

    public Path consumerDirectory(String instance) {
        return root.resolve("consumer-" + instance);
    }

    /** The ZooKeeper connect string, once ZooKeeper runs. */
    public String zooKeeperConnect() throws IOException {
        return Files.readString(
                        zooKeeperDirectory().resolve(LocalZooKeeperMain.CONNECT_FILE),
                        StandardCharsets.UTF_8)
                .trim();
    }

    public boolean zooKeeperReady() {
        return Files.exists(zooKeeperDirectory().resolve(LocalZooKeeperMain.CONNECT_FILE));
    }

    /**
     * The source's host, port, {@code user}/{@code password} and {@code rootUser}/{@code
     * rootPassword}.
     */
    public Properties source() throws IOException {
        return load(sourceDirectory().resolve(LocalSourceMain.PROPERTIES_FILE));
    }

    public boolean sourceReady() {
        return Files.exists(sourceDirectory().resolve(LocalSourceMain.PROPERTIES_FILE));
    }

    /** The saved plan; empty before the first start. */
    public Properties plan() throws IOException {
        Path file = root.resolve(PLAN);
        return Files.exists(file) ? load(file) : new Properties();
    }

    public void savePlan(Properties plan) throws IOException {
        Files.createDirectories(root);
        Path temporary = root.resolve(PLAN + ".tmp");
        try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            plan.store(out, "local changegrid cluster");
        }
        Files.move(
                temporary,
                root.resolve(PLAN),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * The names of the processes with a pid file, in start order: ZooKeeper, source, relays,
     * consumers.
     */
    public List<String> processNames() throws IOException {
        List<String> names = new ArrayList<>();
        Path pids = root.resolve("pids");
        if (!Files.isDirectory(pids)) {
            return names;
        }
        try (var files = Files.list(pids)) {
            files.map(file -> file.getFileName().toString())
                    .filter(file -> file.endsWith(".pid"))
                    .map(file -> file.substring(0, file.length() - ".pid".length()))
                    .forEach(names::add);
        }
        names.sort(
                Comparator.comparingInt(ClusterDirectory::rank)
                        .thenComparing(Comparator.naturalOrder()));
        return names;
    }

    /**
     * The start tier of a process: 0 ZooKeeper, 1 the source, 2 relays, 3 consumers and the
     * console. A tier needs only the tiers below it, so a stop may end one tier's processes
     * together.
     */
    static int rank(String name) {
        if (name.equals("zookeeper")) {
            return 0;
        }
        if (name.equals("source")) {
            return 1;
        }
        return name.startsWith("relay-") ? 2 : 3;
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        }
        return properties;
    }
}
