package io.changegrid.bench.cluster;

import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.consumer.group.ConsumerMain;
import io.changegrid.gridkit.process.JavaProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Consumer group members as separate JVMs ({@code ConsumerMain} with {@code cluster.*} settings and
 * the counting callback), started, killed and stopped by instance name.
 */
final class GroupMembers implements AutoCloseable {

    private final Path directory;
    private final String zooKeeper;
    private final String relay;
    private final String group;
    private final int partitions;
    private final Duration sessionTimeout;
    private final int quorum;
    private final Map<String, Process> running = new LinkedHashMap<>();

    GroupMembers(
            Path directory,
            String zooKeeper,
            String relay,
            String group,
            int partitions,
            Duration sessionTimeout,
            int quorum) {
        this.directory = directory;
        this.zooKeeper = zooKeeper;
        this.relay = relay;
        this.group = group;
        this.partitions = partitions;
        this.sessionTimeout = sessionTimeout;
        this.quorum = quorum;
    }

    /** Starts member {@code instance}; it joins the group on its own. */
    void start(String instance) throws IOException {
        Path config = directory.resolve(instance + ".yaml");
        Files.createDirectories(directory);
        String yaml =
                String.join(
                        "\n",
                        "relays: [\"" + relay + "\"]",
                        "subscription.partitions: " + partitions,
                        "buffer.capacity: 16MiB",
                        "fetch.maxBytes: 1MiB",
                        "callback.type: count",
                        "cluster.zookeeper: \"" + zooKeeper + "\"",
                        "cluster.group: \"" + group + "\"",
                        "cluster.instance: \"" + instance + "\"",
                        "cluster.sessionTimeout: " + sessionTimeout.toMillis() + "ms",
                        "cluster.quorum: " + quorum,
                        "");
        Files.writeString(config, yaml, StandardCharsets.UTF_8);
        List<String> command =
                BenchJvm.command(
                        "512m",
                        List.of(
                                "-Dlogback.configurationFile=io/changegrid/consumer/logback-consumer.xml"),
                        ConsumerMain.class.getName(),
                        List.of("--config", config.toString()));
        running.put(
                instance,
                JavaProcess.start(command, directory.resolve(instance + ".log")).process());
    }

    /** {@code kill -9}: the member's sessions are left to expire. */
    void kill(String instance) throws InterruptedException {
        Process process = running.remove(instance);
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() {
        running.values().forEach(JavaProcess::stop);
        running.clear();
    }
}
