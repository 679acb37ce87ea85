package io.changegrid.bench.chaos;

import io.changegrid.gridkit.server.FreePort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * ZooKeeper's own server ({@code QuorumPeerMain}, as {@code bin/changegrid-zookeeper} runs it) as a
 * child JVM on a fixed port and a data directory that outlives a kill, so a restarted server has
 * its nodes and sessions back.
 */
final class ZooKeeperNode {

    private ZooKeeperNode() {}

    /** A standalone server's child JVM on {@code port}, data in {@code directory}. */
    static ChildJvm create(Path directory, int port) throws IOException {
        Files.createDirectories(directory.resolve("data"));
        Path config = directory.resolve("zoo.cfg");
        // Tick 500 ms: sessions from 1 s to 60 s, as the grid's tests use them.
        String text =
                String.join(
                        "\n",
                        "tickTime=500",
                        "initLimit=10",
                        "syncLimit=5",
                        "dataDir=" + directory.resolve("data"),
                        "clientPort=" + port,
                        "clientPortAddress=" + FreePort.HOST,
                        "maxSessionTimeout=60000",
                        "admin.enableServer=false",
                        "");
        Files.writeString(config, text, StandardCharsets.UTF_8);
        List<String> command =
                ChildJvm.command(
                        "128m",
                        List.of(),
                        "org.apache.zookeeper.server.quorum.QuorumPeerMain",
                        List.of(config.toString()));
        return new ChildJvm("zookeeper", command, directory.resolve("zookeeper.log"));
    }

    /** Waits until the server accepts connections on {@code port}. */
    static void awaitListening(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(FreePort.HOST, port), 500);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "ZooKeeper not listening in time: port=" + port + ", after=" + timeout,
                            e);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }
}
