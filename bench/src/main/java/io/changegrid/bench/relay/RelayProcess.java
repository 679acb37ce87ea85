package io.changegrid.bench.relay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.bench.harness.JitCpu;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.protocol.RelayApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One relay JVM ({@code io.changegrid.relay.RelayMain}) reading a source from a given position,
 * with its configuration, log and state in a work directory; its status and metrics read over its
 * HTTP API.
 *
 * <p>Threading: one harness thread uses it.
 */
public final class RelayProcess implements AutoCloseable {

    private final int index;
    private final Process process;
    private final String baseUrl;
    private final Path log;
    private final RelayHttp http;
    private final KeepAliveGet statusGet;

    private RelayProcess(int index, Process process, String baseUrl, Path log, BenchTls tls) {
        this.index = index;
        this.process = process;
        this.baseUrl = baseUrl;
        this.log = log;
        this.http = new RelayHttp(tls);
        java.net.URI uri = java.net.URI.create(baseUrl);
        this.statusGet = new KeepAliveGet(uri.getHost(), uri.getPort(), tls);
    }

    /**
     * Writes relay {@code index}'s configuration and starts it.
     *
     * @param source what it reads, and from where
     * @param port the port of its HTTP API
     */
    static RelayProcess start(RelaySource source, RelayPlan plan, int index, int port, Path work)
            throws IOException {
        Path config = work.resolve("relay-" + index + ".yaml");
        // JSON is YAML too: written by Jackson, no hand-made quoting.
        // It holds the source password: owner-only, 0600.
        io.changegrid.config.PrivateFile.write(
                config, ResultFile.toText(config(source, plan, index, port, work)));
        List<String> jvm = new ArrayList<>();
        jvm.add("-XX:MaxDirectMemorySize=" + (plan.bufferBytes() + (256L << 20)));
        for (String option : plan.javaOptions()) {
            jvm.add(
                    option.replace("{relay}", Integer.toString(index))
                            .replace("{run}", work.getFileName().toString()));
        }
        List<String> command =
                BenchJvm.command(
                        plan.heap(),
                        jvm,
                        "io.changegrid.relay.RelayMain",
                        relayArguments(config, plan));
        if (index == 0) {
            System.err.println("relay command: " + JavaProcess.describe(command));
        }
        Path log = work.resolve("relay-" + index + ".log");
        return new RelayProcess(
                index,
                JavaProcess.start(command, log).process(),
                plan.tls().url(port),
                log,
                plan.tls());
    }

    /** The relay's command line: its config file, then the plan's settings as overrides. */
    private static List<String> relayArguments(Path config, RelayPlan plan) {
        List<String> arguments = new ArrayList<>(List.of("--config", config.toString()));
        for (String setting : plan.settings()) {
            arguments.add("--set");
            arguments.add(setting);
        }
        return arguments;
    }

    private static ObjectNode config(
            RelaySource source, RelayPlan plan, int index, int port, Path work) {
        ObjectNode root = ResultFile.JSON.createObjectNode();
        ObjectNode sourceNode = root.putObject("source");
        source.configure(sourceNode, index);
        // Consumers see the end of the range soon after the last transaction.
        sourceNode.put("heartbeatInterval", "100ms");
        ObjectNode capture = root.putObject("capture");
        capture.putArray("include").add(source.database() + ".*");
        capture.put("partition", plan.relays() > 1 ? index : -1);
        ObjectNode buffer = root.putObject("buffer");
        buffer.put("capacity", plan.bufferBytes() + "B");
        buffer.put("segmentSize", "64MiB");
        buffer.put("storage", plan.storage());
        Path shm = Path.of("/dev/shm");
        buffer.put("directory", (Files.isDirectory(shm) ? shm : work).toString());
        root.putObject("state")
                .put("directory", work.resolve("relay-" + index + "-state").toString());
        root.putObject("http").put("port", port);
        plan.tls().configure(root);
        List<Object> policies = plan.relayPolicies(source.database());
        if (!policies.isEmpty()) {
            root.set("policies", ResultFile.JSON.valueToTree(policies));
        }
        return root;
    }

    /** The relay's {@code /v1/status}, or {@code null} while it does not answer. */
    JsonNode status() {
        String text = statusGet.get(RelayApi.STATUS);
        try {
            return text == null ? null : ResultFile.JSON.readTree(text);
        } catch (java.io.IOException e) {
            return null; // cut short while the relay stops; the next poll asks again
        }
    }

    /** The relay's Prometheus metrics, or {@code null} while it does not answer. */
    String metrics() throws InterruptedException {
        return http.text(baseUrl + "/metrics");
    }

    /**
     * @throws IllegalStateException naming the log if the process has exited
     */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    "relay exited: relay="
                            + index
                            + ", code="
                            + process.exitValue()
                            + ", log="
                            + log);
        }
    }

    public String baseUrl() {
        return baseUrl;
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    public int index() {
        return index;
    }

    public Path log() {
        return log;
    }

    /** CPU seconds the process has used so far. */
    public double cpuSeconds() {
        return JavaProcess.cpuSeconds(process.toHandle());
    }

    /** CPU seconds of the relay's JIT compiler threads so far, or NaN where not known. */
    public double jitCpuSeconds() {
        return JitCpu.seconds(process.pid()).orElse(Double.NaN);
    }

    @Override
    public void close() {
        statusGet.close();
        JavaProcess.stop(process);
    }
}
