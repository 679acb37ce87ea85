package io.changegrid.relay.stream;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the relay served, per principal: {@code changegrid.relay.served.responses}, {@code .events}
 * and {@code .bytes}, tagged {@code principal} (the token's or certificate's principal, or {@code
 * anonymous}). A subscription is known by its principal: that is what the access file grants, and
 * what a consumer group's members share.
 *
 * <p>Cardinality is bounded: principals come from the token and access files, but a certificate
 * authority can name any number, so past {@value #MAX_PRINCIPALS} principals the rest are counted
 * together as {@value #OTHER}.
 *
 * <p>Thread-safe: request threads count, the scrape thread reads.
 */
public final class ServingMeters {

    /** The most principals counted apart. */
    static final int MAX_PRINCIPALS = 100;

    /** The tag of the principals beyond {@link #MAX_PRINCIPALS}. */
    static final String OTHER = "_other";

    private final Map<String, Served> byPrincipal = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /** Registers the counters, those seen so far and those to come, in {@code registry}. */
    public synchronized void bindTo(MeterRegistry registry) {
        this.registry = registry;
        byPrincipal.values().forEach(served -> served.register(registry));
    }

    /** Counts one response to {@code principal}: its data events and body bytes. */
    void served(String principal, int events, long bytes) {
        Served served = byPrincipal.get(principal);
        if (served == null) {
            served = add(principal);
        }
        served.responses.increment();
        served.events.add(events);
        served.bytes.add(bytes);
    }

    /** Row and schema-change events among the frames of {@code frames[0, length)}. */
    static int events(ByteBuffer frames, int length, EventFrame frame) {
        int events = 0;
        for (int offset = 0; offset < length; offset += frame.length()) {
            frame.wrap(frames, offset);
            int op = frame.operationCode();
            if (op != Operation.HEARTBEAT.code() && op != Operation.END_OF_TRANSACTION.code()) {
                events++;
            }
        }
        return events;
    }

    /** The principal's counters, new ones while under the bound, else those of {@link #OTHER}. */
    private synchronized Served add(String principal) {
        Served known = byPrincipal.get(principal);
        if (known != null) {
            return known;
        }
        return byPrincipal.computeIfAbsent(
                byPrincipal.size() < MAX_PRINCIPALS ? principal : OTHER,
                name -> {
                    Served served = new Served(name);
                    MeterRegistry bound = registry;
                    if (bound != null) {
                        served.register(bound);
                    }
                    return served;
                });
    }

    private static final class Served {

        private final String principal;
        private final LongAdder responses = new LongAdder();
        private final LongAdder events = new LongAdder();
        private final LongAdder bytes = new LongAdder();

        Served(String principal) {
            this.principal = principal;
        }

        void register(MeterRegistry registry) {
            FunctionCounter.builder(
                            "changegrid.relay.served.responses", responses, LongAdder::doubleValue)
                    .description("Stream responses with data, per principal")
                    .tag("principal", principal)
                    .register(registry);
            FunctionCounter.builder(
                            "changegrid.relay.served.events", events, LongAdder::doubleValue)
                    .description(
                            "Row and schema-change events served, after the grant's narrowing, per"
                                    + " principal")
                    .tag("principal", principal)
                    .register(registry);
            FunctionCounter.builder("changegrid.relay.served.bytes", bytes, LongAdder::doubleValue)
                    .description("Response body bytes served (before compression), per principal")
                    .tag("principal", principal)
                    .register(registry);
        }
    }
}
