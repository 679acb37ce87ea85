package io.changegrid.fetchers.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.fetchers.TransactionSink;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.zip.CRC32C;
import org.awaitility.Awaitility;

/**
 * A sink that checks and decodes every transaction it is given, for tests to wait on and inspect.
 */
final class CollectingSink implements TransactionSink {

    /** One published transaction or heartbeat, decoded. */
    record Published(long scn, String resumePosition, List<ChangeEvent> events) {
        boolean isHeartbeat() {
            return events.size() == 1 && events.get(0).operation() == Operation.HEARTBEAT;
        }

        List<ChangeEvent> rowEvents() {
            return events.stream().filter(e -> e.operation().isRowChange()).toList();
        }
    }

    private final List<Published> published = new CopyOnWriteArrayList<>();
    private volatile SchemaRegistry registry;
    private volatile String durable;

    /** What the sink says is durable, as a relay's publisher would after forcing it to disk. */
    void durable(String position) {
        this.durable = position;
    }

    @Override
    public String durablePosition() {
        return durable;
    }

    void decodeWith(SchemaRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void accept(
            long scn,
            ByteBuffer frames,
            int length,
            int events,
            long commitTimeMicros,
            String resumePosition) {
        ChangeEventDecoder decoder = new ChangeEventDecoder(registry);
        EventFrame frame = new EventFrame();
        CRC32C crc = new CRC32C();
        List<ChangeEvent> decoded = new ArrayList<>();
        for (int offset = 0; offset < length; offset += frame.length()) {
            frame.wrapChecked(frames, offset, length, crc);
            assertThat(frame.scn()).isEqualTo(scn);
            decoded.add(decoder.decode(frame));
        }
        // What the fetcher says it handed over is what the frames hold.
        Published transaction = new Published(scn, resumePosition, List.copyOf(decoded));
        if (transaction.isHeartbeat()) {
            assertThat(events).isZero();
            assertThat(commitTimeMicros).isEqualTo(decoded.get(0).commitTimeMicros());
        } else {
            assertThat(events).isEqualTo(decoded.size() - 1);
            assertThat(commitTimeMicros).isEqualTo(decoded.get(0).commitTimeMicros());
        }
        published.add(transaction);
    }

    List<Published> transactions() {
        return published.stream().filter(p -> !p.isHeartbeat()).toList();
    }

    List<Published> all() {
        return List.copyOf(published);
    }

    List<ChangeEvent> rowEvents() {
        return transactions().stream().flatMap(t -> t.rowEvents().stream()).toList();
    }

    /** Waits until some published transaction satisfies the condition. */
    Published awaitTransaction(Predicate<Published> condition) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(() -> transactions().stream().anyMatch(condition));
        return transactions().stream().filter(condition).findFirst().orElseThrow();
    }

    /** Waits until at least {@code count} row events were published. */
    void awaitRowEvents(int count) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(10, TimeUnit.MILLISECONDS)
                .until(() -> rowEvents().size() >= count);
    }
}
