package io.changegrid.bench.relay;

import com.fasterxml.jackson.databind.JsonNode;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.CpuMeter;
import io.changegrid.bench.harness.ProgressLine;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.gridkit.server.FreePort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The relays of one run, started together over the same binlog range (each publishing its partition
 * when there are several), polled every {@value #POLL_MILLIS} ms: a relay's window opens at the
 * first poll that sees it published something and closes at the first that sees its position at the
 * end of the range, so times are good to about one poll.
 *
 * <p>Several relay JVMs started at once on a few cores start up one after the other: the first
 * reads alone while the others are still loading classes. {@link #releaseTogether()} takes that out
 * of the window: it pauses each relay (SIGSTOP) as soon as it answers on HTTP, and once all are up
 * resumes them at once (SIGCONT); their windows then open at that moment. A relay may have read for
 * up to one poll before it was paused.
 *
 * <p>Threading: one harness thread uses it.
 */
public final class RelayFleet implements AutoCloseable {

    static final long POLL_MILLIS = 25;
    private static final long METRICS_NANOS = 1_000_000_000L;
    private static final Duration LIMIT = Duration.ofMinutes(60);

    private final RelaySource source;
    private final List<RelayProcess> relays = new ArrayList<>();
    private long releasedNanos;
    private final CpuMeter machine = new CpuMeter();
    private double[] cpuAtRelease;
    private double[] jitAtRelease;

    private RelayFleet(RelaySource source) {
        this.source = source;
    }

    /** Starts {@code plan.relays()} relays reading from {@code from}. */
    public static RelayFleet start(
            BenchSource source, BinlogPosition from, RelayPlan plan, Path work) throws Exception {
        return start(source, from, plan, work, freePorts(plan.relays()));
    }

    /**
     * Starts {@code plan.relays()} relays reading from {@code from}, relay {@code i} listening on
     * {@code ports.get(i)} (consumers started earlier already know where to look).
     */
    public static RelayFleet start(
            BenchSource source, BinlogPosition from, RelayPlan plan, Path work, List<Integer> ports)
            throws Exception {
        return start(new BinlogRelaySource(source, from), plan, work, ports);
    }

    /**
     * Starts {@code plan.relays()} relays reading {@code source}, relay {@code i} listening on
     * {@code ports.get(i)}. The caller closes {@code source} after the fleet.
     */
    public static RelayFleet start(
            RelaySource source, RelayPlan plan, Path work, List<Integer> ports) throws Exception {
        RelayFleet fleet = new RelayFleet(source);
        try {
            for (int i = 0; i < plan.relays(); i++) {
                fleet.relays.add(RelayProcess.start(source, plan, i, ports.get(i), work));
            }
        } catch (Exception e) {
            fleet.close();
            throw e;
        }
        return fleet;
    }

    /** {@code count} ports free now. */
    public static List<Integer> freePorts(int count) throws java.io.IOException {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < count) {
            int port = FreePort.pick();
            if (!ports.contains(port)) {
                ports.add(port);
            }
        }
        return ports;
    }

    /** The base URL of a relay on this machine listening on {@code port}. */
    public static String url(int port) {
        return "http://127.0.0.1:" + port;
    }

    public List<RelayProcess> relays() {
        return relays;
    }

    /** The relays' base URLs, by relay index. */
    public List<String> urls() {
        return relays.stream().map(RelayProcess::baseUrl).toList();
    }

    /** Waits until every relay answers on its HTTP API. */
    public void awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        for (RelayProcess relay : relays) {
            while (relay.status() == null) {
                relay.checkAlive();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "relay did not answer in 2 minutes: log=" + relay.log());
                }
                Thread.sleep(POLL_MILLIS); // polling a process we do not control
            }
        }
    }

    /**
     * Pauses every relay as soon as it is up and resumes them all at once; see the class doc.
     *
     * @throws IllegalStateException if a relay exits or does not answer in 2 minutes
     */
    public void releaseTogether() throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        boolean[] paused = new boolean[relays.size()];
        int count = 0;
        while (count < relays.size()) {
            for (int i = 0; i < relays.size(); i++) {
                if (!paused[i] && relays.get(i).status() != null) {
                    signal(relays.get(i), "STOP");
                    paused[i] = true;
                    count++;
                }
            }
            for (RelayProcess relay : relays) {
                relay.checkAlive();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "relays did not answer in 2 minutes: logs=" + logs());
            }
            if (count < relays.size()) {
                Thread.sleep(POLL_MILLIS); // polling processes we do not control
            }
        }
        cpuAtRelease = relays.stream().mapToDouble(RelayProcess::cpuSeconds).toArray();
        jitAtRelease = relays.stream().mapToDouble(RelayProcess::jitCpuSeconds).toArray();
        machine.start();
        releasedNanos = System.nanoTime();
        for (RelayProcess relay : relays) {
            signal(relay, "CONT");
        }
    }

    private static void signal(RelayProcess relay, String signal) throws Exception {
        Process kill =
                new ProcessBuilder("kill", "-" + signal, Long.toString(relay.handle().pid()))
                        .redirectErrorStream(true)
                        .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException(
                    "kill -"
                            + signal
                            + " failed: relay="
                            + relay.index()
                            + ", pid="
                            + relay.handle().pid());
        }
    }

    /**
     * Waits until every relay has read up to {@code to}, showing progress towards {@code
     * expectedEvents}, and measures the window.
     *
     * @throws IllegalStateException if a relay exits, its fetcher fails, or an hour passes
     */
    public CatchUp awaitCatchUp(BinlogPosition to, long expectedEvents) throws Exception {
        return awaitCatchUp(to.scn(), expectedEvents);
    }

    /**
     * Waits until every relay's position is at {@code endScn} or beyond (in the order of {@link
     * RelaySource#scnOf(String)}), showing progress towards {@code expectedEvents}, and measures
     * the window.
     *
     * @throws IllegalStateException if a relay exits, its fetcher fails, or an hour passes
     */
    public CatchUp awaitCatchUp(long endScn, long expectedEvents) throws Exception {
        int n = relays.size();
        long[] first = new long[n];
        long[] done = new long[n];
        long[] previousPoll = new long[n];
        double[] previousCpu = new double[n];
        double[] previousJit = new double[n];
        java.util.Arrays.fill(previousPoll, System.nanoTime());
        double[] cpuFirst = new double[n];
        double[] jitFirst = new double[n];
        if (releasedNanos != 0) {
            java.util.Arrays.fill(first, releasedNanos);
            cpuFirst = cpuAtRelease.clone();
            jitFirst = jitAtRelease.clone();
        }
        double[] cpuDone = new double[n];
        double[] jitDone = new double[n];
        double[] events = new double[n];
        double[] bytes = new double[n];
        long[] transactions = new long[n];
        List<long[]> rounds = new ArrayList<>(); // {nanos, transactions, cpu micros} per round
        long heapMax = 0;
        long lastScn = -1;
        long lastMetrics = 0;
        int finished = 0;
        ProgressLine progress =
                new ProgressLine(System.err, n == 1 ? "relay" : n + " relays", expectedEvents);
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (finished < n) {
            boolean readMetrics = System.nanoTime() - lastMetrics > METRICS_NANOS;
            for (int i = 0; i < n; i++) {
                if (done[i] != 0) {
                    continue;
                }
                RelayProcess relay = relays.get(i);
                relay.checkAlive();
                JsonNode status = relay.status();
                if (status == null) {
                    continue;
                }
                JsonNode fetch = status.get("fetch");
                if ("FAILED".equals(fetch.path("state").asText())) {
                    throw new IllegalStateException(
                            "relay fetcher failed: relay="
                                    + i
                                    + ", error="
                                    + fetch.path("error").asText()
                                    + ", log="
                                    + relay.log());
                }
                long now = System.nanoTime();
                transactions[i] = status.path("buffer").path("transactionsAppended").asLong();
                boolean published = fetch.path("lastPublishedScn").asLong(-1) >= 0;
                boolean atEnd = source.scnOf(fetch.get("position").asText()) >= endScn;
                if (first[i] == 0) {
                    double cpu = relay.cpuSeconds();
                    double jit = relay.jitCpuSeconds();
                    if (published && atEnd) { // the whole range between two polls
                        first[i] = previousPoll[i];
                        cpuFirst[i] = previousCpu[i];
                        jitFirst[i] = previousJit[i];
                    } else if (published) {
                        first[i] = now;
                        cpuFirst[i] = cpu;
                        jitFirst[i] = jit;
                        if (!machine.started()) {
                            machine.start();
                        }
                    } else {
                        previousPoll[i] = now;
                        previousCpu[i] = cpu;
                        previousJit[i] = jit;
                    }
                }
                if (atEnd) {
                    done[i] = now;
                    cpuDone[i] = relay.cpuSeconds();
                    jitDone[i] = relay.jitCpuSeconds();
                    lastScn = Math.max(lastScn, fetch.path("lastPublishedScn").asLong(-1));
                    finished++;
                    readMetrics = true;
                }
                if (readMetrics) {
                    String metrics = relay.metrics();
                    if (metrics != null) {
                        events[i] =
                                RelayHttp.sum(metrics, "changegrid_relay_published_events_total");
                        bytes[i] = RelayHttp.sum(metrics, "changegrid_relay_published_bytes_total");
                        heapMax =
                                Math.max(
                                        heapMax,
                                        (long)
                                                RelayHttp.sum(
                                                        metrics,
                                                        "jvm_memory_used_bytes{area=\"heap\""));
                    }
                }
            }
            rounds.add(
                    new long[] {
                        System.nanoTime(),
                        java.util.Arrays.stream(transactions).sum(),
                        Math.round(cpuSeconds() * 1e6)
                    });
            if (readMetrics) {
                lastMetrics = System.nanoTime();
                progress.report((long) sum(events));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "relays did not finish in " + LIMIT + ": logs=" + logs());
            }
            if (finished < n) {
                Thread.sleep(POLL_MILLIS); // the relay's own status is the clock; see class doc
            }
        }
        progress.end();
        double cpu = 0;
        double jit = 0;
        long firstNanos = Long.MAX_VALUE;
        long lastFirstNanos = 0;
        long doneNanos = 0;
        for (int i = 0; i < n; i++) {
            cpu += cpuDone[i] - cpuFirst[i];
            jit += jitDone[i] - jitFirst[i];
            firstNanos = Math.min(firstNanos, first[i]);
            lastFirstNanos = Math.max(lastFirstNanos, first[i]);
            doneNanos = Math.max(doneNanos, done[i]);
        }
        return new CatchUp(
                (long) sum(events),
                (long) sum(bytes),
                firstNanos,
                doneNanos,
                cpu,
                Double.isNaN(jit) ? -1 : jit,
                heapMax,
                lastScn,
                machine.started() ? machine.machineCores() : -1,
                machine.started() ? machine.harnessCores() : 0,
                lastFirstNanos - firstNanos,
                secondHalf(rounds, (long) sum(events), doneNanos));
    }

    /**
     * The second half of the window, from the first poll round by which the relays had appended
     * half of their transactions. Done relays keep their last count, so the sum only grows.
     */
    private static CatchUp.SecondHalf secondHalf(List<long[]> rounds, long events, long doneNanos) {
        long[] last = rounds.get(rounds.size() - 1);
        long total = last[1];
        for (long[] round : rounds) {
            if (total > 0 && round[1] * 2 >= total) {
                long eventsAfter = Math.round(events * (double) (total - round[1]) / total);
                return new CatchUp.SecondHalf(
                        eventsAfter, doneNanos - round[0], (last[2] - round[2]) / 1e6);
            }
        }
        return new CatchUp.SecondHalf(0, 0, 0);
    }

    /**
     * Stream responses with data the relays have served so far, and the events in them (their
     * {@code changegrid.relay.served.*} counters, all principals): how many events one response
     * carries, at the live edge and from a full buffer.
     */
    public long[] servedResponsesAndEvents() throws InterruptedException {
        long responses = 0;
        long events = 0;
        for (RelayProcess relay : relays) {
            String metrics = relay.metrics();
            if (metrics != null) {
                responses +=
                        (long) RelayHttp.sum(metrics, "changegrid_relay_served_responses_total");
                events += (long) RelayHttp.sum(metrics, "changegrid_relay_served_events_total");
            }
        }
        return new long[] {responses, events};
    }

    /** CPU seconds all relays have used so far. */
    public double cpuSeconds() {
        return relays.stream().mapToDouble(RelayProcess::cpuSeconds).sum();
    }

    private List<Path> logs() {
        return relays.stream().map(RelayProcess::log).toList();
    }

    private static double sum(double[] values) {
        double sum = 0;
        for (double value : values) {
            sum += value;
        }
        return sum;
    }

    @Override
    public void close() {
        for (RelayProcess relay : relays) {
            relay.close();
        }
    }
}
