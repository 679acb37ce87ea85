package io.changegrid.bench.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.bench.harness.BenchJvm;
import io.changegrid.bench.harness.ProgressLine;
import io.changegrid.bench.harness.ResultFile;
import io.changegrid.gridkit.process.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The measuring consumers of a run, each its own JVM ({@link MeasuringConsumerMain}) started
 * together; their progress lines are summed into one progress line, their result lines into a
 * {@link Delivery}. Other output (logs) goes to one file per consumer.
 *
 * <p>Threading: one reader thread per consumer; the rest on the caller's thread.
 */
public final class ConsumerFleet implements AutoCloseable {

    private static final Duration LIMIT = Duration.ofMinutes(60);

    /** Progress of a consumer that has not printed its first progress line. */
    private static final long NOT_READY = -1;

    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final AtomicLongArray progress;
    private final AtomicReferenceArray<JsonNode> results;

    private ConsumerFleet(int size) {
        progress = new AtomicLongArray(size);
        for (int i = 0; i < size; i++) {
            progress.set(i, NOT_READY);
        }
        results = new AtomicReferenceArray<>(size);
    }

    /**
     * Starts one JVM per spec.
     *
     * @param heap each consumer's heap
     * @param javaOptions more JVM options; {@code {consumer}} becomes the consumer's number
     */
    public static ConsumerFleet start(
            List<ConsumerSpec> specs, String heap, List<String> javaOptions, Path work)
            throws IOException, InterruptedException {
        ConsumerFleet fleet = new ConsumerFleet(specs.size());
        try {
            for (ConsumerSpec spec : specs) {
                List<String> options = new ArrayList<>();
                for (String option : javaOptions) {
                    options.add(
                            option.replace("{consumer}", Integer.toString(spec.index()))
                                    .replace("{run}", work.getFileName().toString()));
                }
                fleet.launch(spec, heap, options, work);
            }
        } catch (IOException e) {
            fleet.close();
            throw e;
        }
        return fleet;
    }

    private void launch(ConsumerSpec spec, String heap, List<String> javaOptions, Path work)
            throws IOException {
        List<String> command =
                BenchJvm.command(
                        heap, javaOptions, MeasuringConsumerMain.class.getName(), spec.arguments());
        if (spec.index() == 0) {
            System.err.println("consumer command: " + JavaProcess.describe(command));
        }
        Path log = work.resolve("consumer-" + spec.index() + ".log");
        Process process = JavaProcess.startReadingOutput(command, log);
        processes.add(process);
        logs.add(log);
        int index = spec.index();
        Thread reader =
                new Thread(() -> readOutput(index, process, log), "consumer-" + index + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Sorts the consumer's stdout: progress and result lines kept, the rest logged. */
    private void readOutput(int index, Process process, Path log) {
        try (BufferedReader output =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith("{\"progress\"")) {
                    progress.set(index, ResultFile.JSON.readTree(line).get("progress").asLong());
                } else if (line.startsWith("{\"result\"")) {
                    results.set(index, ResultFile.JSON.readTree(line));
                } else {
                    Files.writeString(
                            log.resolveSibling(log.getFileName() + ".out"),
                            line + "\n",
                            StandardCharsets.UTF_8,
                            java.nio.file.StandardOpenOption.CREATE,
                            java.nio.file.StandardOpenOption.APPEND);
                }
            }
        } catch (IOException e) {
            // await() reports the consumer's missing result line with its log; say why here.
            System.err.println("consumer output unreadable: consumer=" + index + ": " + e);
        }
    }

    /**
     * Waits for every consumer's result, showing the events delivered towards {@code
     * expectedEvents}.
     *
     * @throws IllegalStateException naming the consumer's log if one fails or an hour passes
     */
    public Delivery await(long expectedEvents) throws InterruptedException {
        int n = processes.size();
        ProgressLine line =
                new ProgressLine(
                        System.err, n == 1 ? "consumer" : n + " consumers", expectedEvents);
        long deadline = System.nanoTime() + LIMIT.toNanos();
        for (int i = 0; i < n; i++) {
            Process process = processes.get(i);
            while (!process.waitFor(100, TimeUnit.MILLISECONDS)) {
                line.report(total());
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "consumers did not finish in " + LIMIT + ": logs=" + logs);
                }
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(
                        "consumer failed: consumer="
                                + i
                                + ", code="
                                + process.exitValue()
                                + ", log="
                                + logs.get(i));
            }
        }
        // The reader threads hand over the last lines once the streams close.
        long resultsDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (int i = 0; i < n; i++) {
            while (results.get(i) == null) {
                if (System.nanoTime() > resultsDeadline) {
                    throw new IllegalStateException(
                            "consumer printed no result: consumer=" + i + ", log=" + logs.get(i));
                }
                Thread.sleep(5); // the reader thread is at most a few lines behind
            }
        }
        line.end();
        return delivery();
    }

    /**
     * Waits until every consumer's JVM is up and waiting for {@link #go()} (it printed its first
     * progress line), so that no JVM start-up falls in a measured window.
     */
    public void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        for (int i = 0; i < processes.size(); i++) {
            while (progress.get(i) == NOT_READY) {
                if (!processes.get(i).isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "consumer did not start: consumer=" + i + ", log=" + logs.get(i));
                }
                Thread.sleep(10); // a child JVM starting
            }
        }
    }

    /** Lets every consumer start pulling, at once; after {@link #awaitReady()}. */
    public void go() throws IOException {
        for (Process process : processes) {
            process.getOutputStream().write('\n');
            process.getOutputStream().flush();
        }
    }

    private long total() {
        long sum = 0;
        for (int i = 0; i < progress.length(); i++) {
            sum += Math.max(0, progress.get(i));
        }
        return sum;
    }

    private Delivery delivery() {
        long events = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        double cpu = 0;
        long heap = 0;
        double slowest = 0;
        for (int i = 0; i < results.length(); i++) {
            JsonNode result = results.get(i);
            events += result.get("events").asLong();
            cpu += result.get("cpuSeconds").asDouble();
            heap = Math.max(heap, result.get("heapMax").asLong());
            if (result.get("events").asLong() > 0) {
                long firstNanos = result.get("firstNanos").asLong();
                long lastNanos = result.get("lastNanos").asLong();
                first = Math.min(first, firstNanos);
                last = Math.max(last, lastNanos);
                slowest = Math.max(slowest, (lastNanos - firstNanos) / 1e9);
            }
        }
        return new Delivery(events, first == Long.MAX_VALUE ? 0 : first, last, cpu, heap, slowest);
    }

    /** CPU seconds the consumer processes have used so far (0 for those already gone). */
    public double cpuSeconds() {
        return processes.stream().mapToDouble(p -> JavaProcess.cpuSeconds(p.toHandle())).sum();
    }

    @Override
    public void close() {
        for (Process process : processes) {
            JavaProcess.stop(process);
        }
    }
}
