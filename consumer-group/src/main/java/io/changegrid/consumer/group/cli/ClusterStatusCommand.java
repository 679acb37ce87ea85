package io.changegrid.consumer.group.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.cluster.ClusterView;
import io.changegrid.consumer.group.cluster.GroupAssignment;
import io.changegrid.consumer.group.report.GroupReport;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.tls.TlsContexts;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code consumer cluster status --zookeeper zk:2181 --group orders}: who owns which partition of a
 * consumer group, each partition's epoch and checkpoint (from ZooKeeper) and its lag (from the
 * owner's status endpoint, where it runs one), as {@link GroupReport} assembles it. Reads only.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description =
                "Shows a consumer group: its members, who owns which partition, and each partition's"
                        + " epoch, checkpoint and lag.")
public final class ClusterStatusCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(2);

    @Option(
            names = {"-z", "--zookeeper"},
            required = true,
            description = "ZooKeeper connect string of the group (cluster.zookeeper).")
    private String zooKeeper;

    @Option(
            names = {"-g", "--group"},
            required = true,
            description = "The group's name (cluster.group).")
    private String group;

    @Option(names = "--json", description = "Print one JSON document instead of tables.")
    private boolean json;

    @Option(
            names = "--trust-store",
            description =
                    "CA certificates (PEM or PKCS12) that members' https status endpoints are"
                            + " checked against (cluster.status.tls.*); default: the JDK's CAs.")
    private Path trustStore;

    @Option(
            names = "--certificate",
            description = "A PEM client certificate chain, for status endpoints with clientAuth.")
    private Path certificate;

    @Option(names = "--private-key", description = "The PEM PKCS#8 key of --certificate.")
    private Path privateKey;

    @Spec private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        GroupAssignment assignment;
        try (ClusterView view = ClusterView.connect(zooKeeper, group)) {
            assignment = view.read();
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 1;
        }
        if (assignment.partitions() == 0) {
            spec.commandLine()
                    .getErr()
                    .println(
                            "consumer group not set up yet: zookeeper="
                                    + zooKeeper
                                    + ", group="
                                    + group);
            return 1;
        }
        if ((certificate == null) != (privateKey == null)) {
            spec.commandLine().getErr().println("--certificate and --private-key go together");
            return 2;
        }
        HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT);
        try {
            http.sslContext(
                    TlsContexts.jdkClient(
                            new TlsConfig(
                                    certificate,
                                    privateKey,
                                    null,
                                    "",
                                    trustStore,
                                    "",
                                    ClientAuth.NONE)));
        } catch (IOException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
        ObjectNode report;
        try (ZooKeeperSession session = ZooKeeperSession.open(zooKeeper, Duration.ofSeconds(10))) {
            report =
                    new GroupReport(http.build(), HTTP_TIMEOUT)
                            .read(assignment, new GroupCheckpoints(session, group));
        }
        if (json) {
            out.println(JSON.writeValueAsString(report));
        } else {
            print(report, out);
        }
        out.flush();
        return 0;
    }

    private static void print(ObjectNode report, PrintWriter out) {
        out.printf(
                "group %s: %d partitions, %s, leader %s%n%n",
                report.path("group").asText(),
                report.path("partitions").asInt(),
                report.path("assigning").asBoolean()
                        ? "assigning"
                        : "no partition owned (waiting for its quorum)",
                report.path("leader").asText("none"));
        out.printf("%-24s %6s  %s%n", "member", "owned", "status endpoint");
        for (JsonNode member : report.path("members")) {
            out.printf(
                    "%-24s %6d  %s%n",
                    member.path("instance").asText(),
                    member.path("owned").asInt(),
                    member.path("statusUrl").asText("-"));
        }
        out.printf(
                "%n%9s  %-24s %6s  %20s  %10s  %-10s %10s%n",
                "partition", "owner", "epoch", "checkpoint", "saved", "state", "lag");
        for (JsonNode partition : report.path("partitionStates")) {
            out.printf(
                    "%9d  %-24s %6s  %20s  %10s  %-10s %10s%n",
                    partition.path("partition").asInt(),
                    partition.path("owner").asText("-"),
                    partition.has("epoch") ? partition.path("epoch").asText() : "-",
                    partition.has("checkpointScn") ? partition.path("checkpointScn").asText() : "-",
                    partition.has("savedMillisAgo")
                            ? String.format(
                                    "%.1fs ago", partition.path("savedMillisAgo").asLong() / 1000.0)
                            : "-",
                    partition.path("state").asText("-"),
                    partition.path("lagMillis").asLong(-1) >= 0
                            ? partition.path("lagMillis").asLong() + " ms"
                            : "-");
        }
    }
}
