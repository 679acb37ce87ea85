package io.changegrid.relay;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A relay running as its own JVM, started from a YAML file, that a test can {@code kill -9}. */
final class RelayProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private RelayProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static RelayProcess start(Path configFile, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process =
                new ProcessBuilder(
                                List.of(
                                        java,
                                        "-Xmx256m",
                                        "-XX:MaxDirectMemorySize=256m",
                                        "-cp",
                                        System.getProperty("java.class.path"),
                                        RelayMain.class.getName(),
                                        "--config",
                                        configFile.toString()))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        return new RelayProcess(process, log);
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** SIGKILL: no shutdown hook, no flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String logTail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
