package io.changegrid.deploy.cluster;

import io.changegrid.relay.RelayMain;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code deploy/bin/local-cluster.sh}: a local multi-process grid on this machine. Every component
 * is its own JVM, started in the background, with its log and pid file in the cluster directory
 * ({@link ClusterDirectory}):
 *
 * <pre>
 * local-cluster.sh start [--dir local-cluster] [--relays 2] [--consumers 3] [--partitions 12]
 *                        [--session-timeout 30s] [--secure] [--no-console]
 * local-cluster.sh add-consumer --name c4
 * local-cluster.sh status
 * local-cluster.sh stop
 * </pre>
 */
@Command(
        name = "local-cluster",
        mixinStandardHelpOptions = true,
        description =
                "Runs a local multi-process grid: ZooKeeper, a private MariaDB source, relays and a"
                        + " consumer group, each its own JVM.",
        subcommands = {
            LocalClusterMain.Start.class,
            LocalClusterMain.AddConsumer.class,
            LocalClusterMain.Status.class,
            LocalClusterMain.Stop.class
        })
public final class LocalClusterMain {

    public static void main(String[] args) {
        RelayMain.routeJavaUtilLogging();
        System.exit(new CommandLine(new LocalClusterMain()).execute(args));
    }

    /** The option every command takes. */
    static class DirectoryOption {
        @Option(
                names = "--dir",
                description = "The cluster's working directory. Default: ${DEFAULT-VALUE}.")
        Path directory = Path.of("local-cluster");

        LocalCluster cluster() {
            return new LocalCluster(new ClusterDirectory(directory), System.out);
        }
    }

    @Command(
            name = "start",
            mixinStandardHelpOptions = true,
            description =
                    "Starts ZooKeeper, a private MariaDB, the relays and the consumer group, and waits"
                            + " until every partition has an owner.")
    static final class Start extends DirectoryOption implements Callable<Integer> {

        @Option(
                names = "--relays",
                description = "Relays of the source. Default: ${DEFAULT-VALUE}.")
        int relays = 2;

        @Option(
                names = "--consumers",
                description = "Members of the consumer group. Default: ${DEFAULT-VALUE}.")
        int consumers = 3;

        @Option(
                names = "--partitions",
                description = "Partitions of the group. Default: ${DEFAULT-VALUE}.")
        int partitions = 12;

        @Option(
                names = "--quorum",
                description =
                        "Members the group waits for before assigning (default: --consumers).")
        Integer quorum;

        @Option(
                names = "--group",
                description = "The consumer group's name. Default: ${DEFAULT-VALUE}.")
        String group = "local";

        @Option(
                names = "--session-timeout",
                description =
                        "ZooKeeper session timeout of consumers and relays. Default: ${DEFAULT-VALUE}.")
        String sessionTimeout = "30s";

        @Option(
                names = "--heartbeat",
                description = "Heartbeat interval of the relays. Default: ${DEFAULT-VALUE}.")
        String heartbeat = "500ms";

        @Option(
                names = "--callback",
                description =
                        "callback.type of the consumers (jsonl, count). Default: ${DEFAULT-VALUE}.")
        String callback = "jsonl";

        @Option(
                names = "--java-options",
                description = "JVM options of relays and consumers. Default: ${DEFAULT-VALUE}.")
        String javaOptions = "-Xmx256m -XX:+UseSerialGC";

        @Option(
                names = "--secure",
                description =
                        "TLS on every HTTP endpoint (a local CA made at start), bearer tokens, an"
                                + " access file, ZooKeeper digest authentication and ACLs"
                                + " (docs/security.md).")
        boolean secure;

        @Option(
                names = "--no-console",
                description = "Do not start the web console (e.g. for tests that do not use it).")
        boolean noConsole;

        @Override
        public Integer call() throws Exception {
            ClusterPlan plan =
                    new ClusterPlan(
                            group,
                            partitions,
                            quorum == null ? Math.max(1, consumers) : quorum,
                            sessionTimeout,
                            heartbeat,
                            callback,
                            javaOptions,
                            secure);
            cluster().start(plan, relays, consumers, !noConsole);
            return 0;
        }
    }

    @Command(
            name = "add-consumer",
            mixinStandardHelpOptions = true,
            description = "Starts one more member of the running cluster's consumer group.")
    static final class AddConsumer extends DirectoryOption implements Callable<Integer> {

        @Option(names = "--name", required = true, description = "The member's instance name.")
        String name;

        @Override
        public Integer call() throws Exception {
            cluster().addConsumer(name);
            return 0;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Shows the cluster's processes and the consumer group.")
    static final class Status extends DirectoryOption implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            cluster().status();
            return 0;
        }
    }

    @Command(
            name = "stop",
            mixinStandardHelpOptions = true,
            description = "Stops every process of the cluster, consumers first.")
    static final class Stop extends DirectoryOption implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            cluster().stop();
            return 0;
        }
    }
}
