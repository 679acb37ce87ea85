package io.changegrid.bench.chaos;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The chaos grid's relays and appliers as child JVMs ({@code RelayMain}, {@code ApplierMain}, the
 * main classes the distribution's launchers run), each with its configuration file, state and log
 * in the work directory, so a restarted one finds what its killed predecessor left.
 *
 * @param work the run's work directory
 * @param source the private MariaDB the relays read
 * @param target the PostgreSQL database the appliers write
 * @param zooKeeper connect string of the grid's ZooKeeper
 * @param relayPorts the relays' HTTP ports, fixed across restarts
 * @param partitions partitions of the applier group
 */
record GridNodes(
        Path work,
        MariaDbServer source,
        PostgresDatabase target,
        String zooKeeper,
        List<Integer> relayPorts,
        int partitions) {

    static final String GROUP = "chaos";

    /** Relay {@code index}: reads the whole source, a persistent mapped buffer, registered. */
    ChildJvm relay(int index) throws IOException {
        ObjectNode root = ResultFile.JSON.createObjectNode();
        ObjectNode sourceNode = root.putObject("source");
        sourceNode.put("host", source.host());
        sourceNode.put("port", source.port());
        sourceNode.put("user", source.user());
        sourceNode.put("password", source.password());
        sourceNode.put("serverId", 5401 + index);
        sourceNode.put("start", "earliest");
        sourceNode.put("heartbeatInterval", "500ms");
        sourceNode.put("connectTimeout", "3s");
        sourceNode.put("reconnectBackoffMax", "2s");
        root.putObject("capture").putArray("include").add(ChaosLoad.SCHEMA + ".*");
        ObjectNode buffer = root.putObject("buffer");
        buffer.put("capacity", "256MiB");
        buffer.put("segmentSize", "16MiB");
        buffer.put("storage", "mapped");
        buffer.put("persistent", true);
        buffer.put(
                "directory",
                Files.createDirectories(work.resolve("relay-" + index + "-buffer")).toString());
        root.putObject("state")
                .put("directory", work.resolve("relay-" + index + "-state").toString());
        root.putObject("http").put("port", relayPorts.get(index));
        ObjectNode cluster = root.putObject("cluster");
        cluster.put("zookeeper", zooKeeper);
        cluster.put("sessionTimeout", "10s");
        Path config = work.resolve("relay-" + index + ".yaml");
        io.changegrid.config.PrivateFile.write(config, ResultFile.toText(root)); // holds a password
        List<String> command =
                ChildJvm.command(
                        "256m",
                        List.of("-XX:MaxDirectMemorySize=256m"),
                        "io.changegrid.relay.RelayMain",
                        List.of("--config", config.toString()));
        return new ChildJvm("relay-" + index, command, work.resolve("relay-" + index + ".log"));
    }

    /** Applier {@code index}: a member of the group, applying its partitions into the target. */
    ChildJvm applier(int index) throws IOException {
        ObjectNode root = ResultFile.JSON.createObjectNode();
        var relays = root.putArray("relays");
        relayPorts.forEach(port -> relays.add("http://127.0.0.1:" + port));
        ObjectNode subscription = root.putObject("subscription");
        subscription.putArray("tables").add(ChaosLoad.SCHEMA + ".*");
        subscription.put("partitions", partitions);
        root.putObject("buffer").put("capacity", "32MiB");
        ObjectNode fetch = root.putObject("fetch");
        fetch.put("requestTimeout", "5s");
        fetch.put("stallTimeout", "15s");
        fetch.put("backoffMax", "1s");
        ObjectNode targetNode = root.putObject("target");
        targetNode.put("url", target.jdbcUrl());
        targetNode.put("user", target.user());
        if (!target.password().isEmpty()) {
            targetNode.put("password", target.password());
        }
        ObjectNode cluster = root.putObject("cluster");
        cluster.put("zookeeper", zooKeeper);
        cluster.put("group", GROUP);
        cluster.put("instance", "applier-" + index);
        cluster.put("sessionTimeout", "10s");
        Path config = work.resolve("applier-" + index + ".yaml");
        io.changegrid.config.PrivateFile.write(config, ResultFile.toText(root));
        List<String> command =
                ChildJvm.command(
                        "256m",
                        List.of(),
                        "io.changegrid.appliers.ApplierMain",
                        List.of("--config", config.toString()));
        return new ChildJvm("applier-" + index, command, work.resolve("applier-" + index + ".log"));
    }
}
