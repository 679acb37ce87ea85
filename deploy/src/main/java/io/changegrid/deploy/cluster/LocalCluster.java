package io.changegrid.deploy.cluster;

import io.changegrid.console.ConsoleMain;
import io.changegrid.consumer.group.ConsumerMain;
import io.changegrid.consumer.group.cli.ClusterStatusCommand;
import io.changegrid.consumer.group.cluster.ClusterView;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import io.changegrid.deploy.local.LocalSourceMain;
import io.changegrid.deploy.local.LocalZooKeeperMain;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.tls.TlsContexts;
import io.changegrid.relay.RelayMain;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * The operations of {@code deploy/bin/local-cluster.sh} on one cluster directory: start the whole
 * grid, add a consumer to the group, show it, stop it.
 *
 * <p>Not thread-safe; one launcher process works on a directory at a time.
 */
final class LocalCluster {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);
    private static final HttpClient PLAIN =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final ClusterDirectory directory;
    private final PrintStream out;
    private final Set<Integer> portsGiven = new HashSet<>();
    private final ClusterSecurity security;
    private HttpClient http = PLAIN; // trusts the cluster's CA once it is secured
    private boolean secure;

    LocalCluster(ClusterDirectory directory, PrintStream out) {
        this.directory = directory;
        this.out = out;
        this.security = ClusterSecurity.of(directory);
    }

    /**
     * Starts ZooKeeper, the private source, {@code relays} relays and {@code consumers} group
     * members, and waits until every partition has an owner; then the web console unless {@code
     * console} is false or the grid is secured.
     *
     * @throws IllegalStateException if a process of this directory still runs, or one fails to
     *     start (with its log)
     */
    void start(ClusterPlan plan, int relays, int consumers, boolean console) throws Exception {
        List<String> running = runningProcesses();
        if (!running.isEmpty()) {
            throw new IllegalStateException(
                    "a cluster still runs in this directory, stop it first: dir="
                            + directory.root()
                            + ", running="
                            + running);
        }
        // A fresh private source every time: state from an earlier run names another server.
        clean();
        Properties saved = new Properties();
        plan.store(saved);
        directory.savePlan(saved);

        out.println(
                "starting a local changegrid cluster in "
                        + directory.root()
                        + (plan.secure() ? " (secure)" : ""));
        if (plan.secure()) {
            security.create();
            useSecurity();
            out.println("  security   " + security.caPem().getParent() + " (CA, tokens, access)");
        }
        // ZooKeeper and the source need nothing of each other: both start at once.
        ChildProcess.start(
                directory,
                "zookeeper",
                List.of("-Xmx128m", "-XX:+UseSerialGC"),
                LocalZooKeeperMain.class,
                zooKeeperArguments());
        ChildProcess.start(
                directory,
                "source",
                List.of("-Xmx128m", "-XX:+UseSerialGC"),
                LocalSourceMain.class,
                List.of("--dir", directory.sourceDirectory().toString()));
        ChildProcess.awaitReady(directory, "zookeeper", START_TIMEOUT, directory::zooKeeperReady);
        String zooKeeper = directory.zooKeeperConnect();
        out.println("  zookeeper  " + zooKeeper + (secure ? " (TLS only)" : ""));

        ChildProcess.awaitReady(directory, "source", START_TIMEOUT, directory::sourceReady);
        Properties source = directory.source();
        out.println(
                "  source     "
                        + source.getProperty("host")
                        + ":"
                        + source.getProperty("port")
                        + " (private MariaDB, database shop, root user "
                        + source.getProperty("rootUser")
                        + ")");

        List<String> relayNames = new ArrayList<>();
        for (int i = 1; i <= relays; i++) {
            relayNames.add(startRelay("relay-" + i, 6_400 + i, plan, source, zooKeeper));
        }
        for (String name : relayNames) {
            String url = directory.plan().getProperty("relay." + name + ".url");
            // A secured relay's /v1/status needs the operations role; /v1/health is open.
            String ready = url + (secure ? "/v1/health" : "/v1/status");
            ChildProcess.awaitReady(directory, name, START_TIMEOUT, () -> answers(ready));
            out.println("  " + pad(name) + url + "/v1/status");
        }

        List<String> instances = new ArrayList<>();
        for (int i = 1; i <= consumers; i++) {
            instances.add(launchConsumer("c" + i, plan, zooKeeper));
        }
        for (String instance : instances) {
            awaitConsumer(instance);
        }
        awaitAllOwned(zooKeeper, plan);
        if (secure) {
            // The console has no relay credentials yet: it would show every relay as refusing.
            out.println("  console    not started with --secure");
        } else if (!console) {
            out.println("  console    not started (--no-console)");
        } else {
            startConsole(zooKeeper);
        }
        out.println();
        out.println("consumer group " + plan.group() + ":");
        showGroup(zooKeeper, plan.group());
    }

    /** The web console of this grid (docs/operations.md), its own JVM like every component. */
    private void startConsole(String zooKeeper) throws Exception {
        int port = freePort();
        ChildProcess.start(
                directory,
                "console",
                List.of("-Xmx128m", "-XX:+UseSerialGC"),
                ConsoleMain.class,
                List.of(
                        "--set", "cluster.zookeeper=" + zooKeeper,
                        "--set", "http.port=" + port));
        String url = "http://127.0.0.1:" + port + "/";
        ChildProcess.awaitReady(directory, "console", START_TIMEOUT, () -> answers(url));
        out.println("  console    " + url);
    }

    /** Starts one more member of the group, named {@code instance}. */
    void addConsumer(String instance) throws Exception {
        ClusterPlan plan = ClusterPlan.load(directory.plan());
        if (plan.secure()) {
            useSecurity();
        }
        if (ChildProcess.find(directory, instance).isPresent()) {
            throw new IllegalStateException("consumer already runs: instance=" + instance);
        }
        launchConsumer(instance, plan, directory.zooKeeperConnect());
        awaitConsumer(instance);
    }

    /**
     * Stops every process with SIGTERM and a grace period, tier by tier: the console and consumers,
     * then the relays, the source, ZooKeeper. The processes of one tier are signalled together and
     * awaited together: consumers leaving one at a time would hand their partitions to the ones
     * still running, which then start them only to stop, and each waits out the one before.
     */
    void stop() throws IOException {
        List<String> names = directory.processNames();
        Collections.reverse(names);
        int from = 0;
        while (from < names.size()) {
            int rank = ClusterDirectory.rank(names.get(from));
            int to = from;
            while (to < names.size() && ClusterDirectory.rank(names.get(to)) == rank) {
                to++;
            }
            List<String> tier = names.subList(from, to);
            List<Boolean> wasRunning = ChildProcess.stopTogether(directory, tier, STOP_GRACE);
            for (int i = 0; i < tier.size(); i++) {
                out.println((wasRunning.get(i) ? "stopped    " : "not running ") + tier.get(i));
            }
            from = to;
        }
    }

    /** Prints each process and the group's assignment. */
    void status() throws Exception {
        for (String name : directory.processNames()) {
            out.println(
                    pad(name)
                            + ChildProcess.find(directory, name)
                                    .map(handle -> "running, pid " + handle.pid())
                                    .orElse("not running"));
        }
        Properties plan = directory.plan();
        if (Boolean.parseBoolean(plan.getProperty("secure", "false"))) {
            useSecurity();
        }
        if (directory.zooKeeperReady() && plan.getProperty("group") != null) {
            out.println();
            showGroup(directory.zooKeeperConnect(), plan.getProperty("group"));
        }
    }

    private String startRelay(
            String name, int serverId, ClusterPlan plan, Properties source, String zooKeeper)
            throws IOException {
        int port = freePort();
        Path config =
                ComponentConfigs.relay(
                        directory,
                        name,
                        serverId,
                        port,
                        plan,
                        source,
                        zooKeeper,
                        secure ? security.relaySettings() : Map.of());
        List<String> options = new ArrayList<>(plan.javaOptionList());
        options.add("-XX:MaxDirectMemorySize=128m");
        ChildProcess.start(
                directory, name, options, RelayMain.class, List.of("--config", config.toString()));
        Properties saved = directory.plan();
        saved.setProperty("relay." + name + ".url", scheme() + "127.0.0.1:" + port);
        directory.savePlan(saved);
        return name;
    }

    private String launchConsumer(String instance, ClusterPlan plan, String zooKeeper)
            throws IOException {
        int port = freePort();
        Path config =
                ComponentConfigs.consumer(
                        directory,
                        instance,
                        port,
                        plan,
                        zooKeeper,
                        secure ? security.consumerSettings(plan.group()) : Map.of());
        ChildProcess.start(
                directory,
                instance,
                plan.javaOptionList(),
                ConsumerMain.class,
                List.of("--config", config.toString()));
        Properties saved = directory.plan();
        saved.setProperty("consumer." + instance + ".status", scheme() + "127.0.0.1:" + port);
        directory.savePlan(saved);
        return instance;
    }

    private void awaitConsumer(String instance) throws Exception {
        String status = directory.plan().getProperty("consumer." + instance + ".status");
        ChildProcess.awaitReady(
                directory, instance, START_TIMEOUT, () -> answers(status + "/v1/status"));
        out.println("  " + pad(instance) + status + "/v1/status");
    }

    private void awaitAllOwned(String zooKeeper, ClusterPlan plan) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (ClusterView view = ClusterView.connect(zooKeeper, plan.group())) {
            while (true) {
                GroupAssignment assignment = view.read();
                if (assignment.owners().size() == plan.partitions()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "partitions not all assigned in time: owned="
                                    + assignment.owners().size()
                                    + ", partitions="
                                    + plan.partitions());
                }
                Thread.sleep(200);
            }
        }
    }

    private void showGroup(String zooKeeper, String group) {
        CommandLine command = new CommandLine(new ClusterStatusCommand());
        command.setOut(new java.io.PrintWriter(out, true));
        List<String> args = new ArrayList<>(List.of("--zookeeper", zooKeeper, "--group", group));
        if (secure) {
            args.addAll(List.of("--trust-store", security.caPem().toString()));
        }
        command.execute(args.toArray(String[]::new));
    }

    private List<String> runningProcesses() throws IOException {
        List<String> running = new ArrayList<>();
        for (String name : directory.processNames()) {
            if (ChildProcess.find(directory, name).isPresent()) {
                running.add(name);
            }
        }
        return running;
    }

    private void clean() throws IOException {
        if (!Files.isDirectory(directory.root())) {
            return;
        }
        try (Stream<Path> entries = Files.list(directory.root())) {
            for (Path entry : entries.toList()) {
                deleteRecursively(entry);
            }
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path each : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }

    /** Clients of this launcher trust the cluster's CA from now on. */
    private void useSecurity() throws IOException {
        for (Path file : security.files()) {
            if (!Files.isReadable(file)) {
                throw new IllegalStateException(
                        "the secured cluster's files are missing, start it again: file=" + file);
            }
        }
        secure = true;
        // This launcher's ZooKeeper clients (Helix's views, the status command) read the JVM's.
        security.zooKeeperTls().applyToJvm();
        http =
                HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(1))
                        .sslContext(
                                TlsContexts.jdkClient(
                                        new TlsConfig(
                                                null,
                                                null,
                                                null,
                                                "",
                                                security.caPem(),
                                                "",
                                                ClientAuth.NONE)))
                        .build();
    }

    private List<String> zooKeeperArguments() {
        List<String> args =
                new ArrayList<>(List.of("--dir", directory.zooKeeperDirectory().toString()));
        if (secure) {
            args.addAll(security.zooKeeperArguments());
        }
        return args;
    }

    private String scheme() {
        return secure ? "https://" : "http://";
    }

    private boolean answers(String url) {
        try {
            HttpResponse<Void> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * A port free now and not given to another process of this grid: each child binds its port only
     * once it runs, so the system could hand the same free port out twice meanwhile.
     */
    private int freePort() throws IOException {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0)) {
                if (portsGiven.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            }
        }
    }

    private static String pad(String name) {
        return String.format("%-11s", name);
    }
}
