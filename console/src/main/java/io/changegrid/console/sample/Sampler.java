package io.changegrid.console.sample;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.console.grid.GridReader;
import io.changegrid.console.grid.GridSnapshot;
import io.changegrid.console.sample.RelayProbe.RelayReading;
import io.changegrid.protocol.RelayRegistration;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the grid every interval: reads it from ZooKeeper ({@link GridReader}), polls each relay
 * ({@link RelayProbe}), updates the charts ({@link Charts}) and publishes the API document the
 * pages render. A sample that fails keeps the previous document and logs why.
 *
 * <p>Threading: samples on one thread of its own ({@code console-sampler}); {@link #state} and
 * {@link #grid} from any thread.
 */
public final class Sampler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Sampler.class);

    private final GridReader reader;
    private final RelayProbe probe;
    private final Charts charts;
    private final String zooKeeper;
    private final Duration interval;
    private final ScheduledExecutorService thread;
    private final AtomicReference<ObjectNode> state = new AtomicReference<>();
    private final AtomicReference<GridSnapshot> grid =
            new AtomicReference<>(new GridSnapshot(List.of(), List.of(), "not sampled yet"));

    public Sampler(
            GridReader reader,
            HttpClient http,
            String zooKeeper,
            Duration interval,
            Duration history,
            Duration probeTimeout,
            String relayToken) {
        this.reader = reader;
        this.probe = new RelayProbe(http, probeTimeout, relayToken);
        this.charts = new Charts(history.toMillis());
        this.zooKeeper = zooKeeper;
        this.interval = interval;
        this.thread =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread sampler = new Thread(runnable, "console-sampler");
                            sampler.setDaemon(true);
                            return sampler;
                        });
    }

    /** Takes the first sample now, then one every interval. */
    public void start() {
        thread.scheduleWithFixedDelay(
                this::sampleSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Takes a sample soon, out of turn (after a control operation, so the page shows it). */
    public void sampleSoon() {
        thread.execute(this::sampleSafely);
    }

    /** The last API document; null before the first sample. */
    public ObjectNode state() {
        return state.get();
    }

    /** The grid as last read. */
    public GridSnapshot grid() {
        return grid.get();
    }

    private void sampleSafely() {
        try {
            sample();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("grid sample failed, the pages keep the previous one", e);
        }
    }

    private void sample() throws InterruptedException {
        GridSnapshot read = reader.read();
        Map<String, RelayReading> readings = new LinkedHashMap<>();
        for (RelayRegistration relay : read.relays()) {
            readings.put(relay.endpoint(), probe.probe(relay.endpoint()));
        }
        long now = System.currentTimeMillis();
        charts.record(now, readings, read.groups());
        grid.set(read);
        state.set(GridStateJson.write(now, zooKeeper, read, readings, charts));
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reader.close();
    }
}
