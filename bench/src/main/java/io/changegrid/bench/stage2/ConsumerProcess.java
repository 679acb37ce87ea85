package io.changegrid.bench.stage2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a measuring consumer as its own JVM and returns the JSON line it prints last. */
public final class ConsumerProcess {

    private ConsumerProcess() {}

    /**
     * Starts {@code main} with {@code args} on this JVM's class path (heap pre-touched, 1 GiB) and
     * waits for it.
     *
     * @throws IllegalStateException with its output if it fails or prints no JSON line
     */
    public static JsonNode run(Class<?> main, List<String> args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command =
                new ArrayList<>(
                        List.of(
                                java,
                                "-Xmx1g",
                                "-Xms1g",
                                "-XX:+UseG1GC",
                                "-XX:+AlwaysPreTouch",
                                "-cp",
                                System.getProperty("java.class.path"),
                                main.getName()));
        command.addAll(args);
        Process process =
                new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(15, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException(
                    "consumer process failed: main="
                            + main.getSimpleName()
                            + ", args="
                            + args
                            + ", output="
                            + output);
        }
        String last = null;
        for (String line : output.split("\n")) {
            if (line.startsWith("{")) {
                last = line;
            }
        }
        if (last == null) {
            throw new IllegalStateException("consumer process printed no result: output=" + output);
        }
        return new ObjectMapper().readTree(last);
    }
}
