package io.changegrid.appliers.it;

import io.changegrid.appliers.ApplierMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@link ApplierMain} in its own JVM, configured by {@code --set}, that a test can kill -9. */
final class ApplierProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private ApplierProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ApplierProcess start(Map<String, String> settings, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ApplierMain.class.getName());
        settings.forEach(
                (key, value) -> {
                    command.add("--set");
                    command.add(key + "=" + value);
                });
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        return new ApplierProcess(process, log);
    }

    /** SIGKILL: no shutdown hook, no rollback, no flush. */
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
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
