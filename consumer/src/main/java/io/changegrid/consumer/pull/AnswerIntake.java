package io.changegrid.consumer.pull;

import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.schema.SchemaCache;
import io.changegrid.protocol.SnapshotCursor;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a relay's 200 answer into the consumer buffer for the {@link Puller}: reads its headers and
 * checks them (the relay's identity, the timeline, a snapshot cursor when one was asked for), reads
 * the body straight into the buffer claim ({@link BodyReader}), checks it ({@link ResponseCheck}),
 * fetches the schemas its frames name, publishes it, and moves the {@link StreamPosition} past it.
 *
 * <p>An answer not taken is an expected condition, so a return code: what to do about it is the
 * puller's decision ({@link RelayFailover}), and {@link #problem()} or {@link #fatal()} says why.
 *
 * <p>Threading: the puller thread's; {@link #responses()}, {@link #bytesPulled()} and {@link
 * #relayNewestScn()} readable from any thread.
 */
final class AnswerIntake {

    /** {@link #take}: taken; {@link #headers()} are the answer's. */
    static final int TAKEN = 0;

    /** {@link #take}: the relay answered wrong; {@link #problem()} says how. */
    static final int RELAY_FAILED = 1;

    /** {@link #take}: asking again or elsewhere would not help; {@link #fatal()} says why. */
    static final int FATAL = 2;

    /** {@link #take}: the consumer is stopping, or the buffer closed. */
    static final int STOPPED = 3;

    // The puller's logger: these lines are the puller's, where operators look for them.
    private static final Logger LOG = LoggerFactory.getLogger(Puller.class);

    private final ConsumerBuffer buffer;
    private final List<SchemaCache> schemas;
    private final RelayIdentity identity;
    private final TimelineGuard timeline;
    private final ResponseCheck check = new ResponseCheck();
    private final BodyReader bodies;
    private final StreamPosition position;
    private final BooleanSupplier stopping;
    private String problem;
    private ConsumerException fatal;
    private StreamHeaders headers;

    private volatile long relayNewestScn = -1;
    private volatile long responses;
    private volatile long bytesPulled;

    /**
     * @param buffer the consumer buffer the puller is the only writer of
     * @param relays how many relays the puller asks
     * @param schemas one schema cache per relay
     * @param requestBytes the size of the claim each body is read into
     * @param timeline the timeline the consumer keeps to
     * @param position moved past each answer taken
     * @param stopping whether the consumer is stopping
     */
    AnswerIntake(
            ConsumerBuffer buffer,
            int relays,
            List<SchemaCache> schemas,
            int requestBytes,
            TimelineGuard timeline,
            StreamPosition position,
            BooleanSupplier stopping) {
        this.buffer = buffer;
        this.schemas = schemas;
        this.identity = new RelayIdentity(relays);
        this.timeline = timeline;
        this.bodies = new BodyReader(buffer, requestBytes);
        this.position = position;
        this.stopping = stopping;
    }

    /**
     * Takes the answer to a request sent from {@link #position}.
     *
     * @param claim the buffer claim the body is read into
     * @param sentSnapshot the snapshot cursor the request carried, or null
     * @param sentParts the parts the request said were held, or 0
     * @return {@link #TAKEN}, {@link #RELAY_FAILED}, {@link #FATAL} or {@link #STOPPED}
     * @throws IOException if the body could not be read
     */
    int take(
            int relayIndex,
            URI relay,
            Response response,
            InputStream body,
            int claim,
            String sentSnapshot,
            int sentParts)
            throws IOException, InterruptedException {
        problem = null;
        fatal = null;
        headers = null;
        try {
            headers = StreamHeaders.read(response.getHeaders());
        } catch (IllegalArgumentException e) {
            return relayFailed(e.getMessage());
        }
        ConsumerException mismatch = identity.check(relayIndex, relay, headers);
        if (mismatch != null) {
            return fatal(mismatch);
        }
        String otherTimeline = timeline.judge(relay, headers, position.scn());
        if (otherTimeline != null) {
            return fatal(new ConsumerException(otherTimeline));
        }
        if (sentSnapshot != null && headers.snapshot() == null) {
            return relayFailed("snapshot request answered without a snapshot cursor header");
        }
        String snapshotAfter =
                sentSnapshot == null || SnapshotCursor.COMPLETE.equals(headers.snapshot())
                        ? null
                        : headers.snapshot();
        long lastScn = headers.lastScn();
        int length =
                bodies.read(
                        body, response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH), claim);
        switch (length) {
            case BodyReader.TRUNCATED -> {
                return relayFailed("response body truncated");
            }
            case BodyReader.TOO_LARGE -> {
                return fatal(tooLarge(relay, bodies.sizeText()));
            }
            case BodyReader.CLOSED -> {
                return STOPPED;
            }
            default -> {}
        }
        int offset = bodies.offset();
        if (stopping.getAsBoolean()) {
            return STOPPED;
        }
        long from = position.scn();
        if (!check.check(buffer.view(), offset, length, from, sentParts, headers)) {
            return relayFailed("corrupt response: from=" + from + ", " + check.problem());
        }
        try {
            schemas.get(relayIndex).ensureSchemas(buffer.view(), offset, length);
        } catch (IOException e) {
            return relayFailed(e.getMessage());
        }
        if (length > 0 || lastScn > from || !Objects.equals(snapshotAfter, position.snapshot())) {
            buffer.publish(
                    length,
                    lastScn,
                    relayIndex,
                    snapshotAfter,
                    sentParts,
                    position.epoch(),
                    SnapshotCursor.begunTable(sentSnapshot, headers.snapshot()).orElse(null));
            responses = responses + 1;
            bytesPulled = bytesPulled + length;
        }
        position.took(lastScn, snapshotAfter, check.heldParts());
        relayNewestScn = headers.newestScn();
        if (sentSnapshot != null && snapshotAfter == null) {
            LOG.info("snapshot complete: relay={}, checkpoint={}", relay, lastScn);
        }
        return TAKEN;
    }

    /** After {@link #RELAY_FAILED}: how the relay answered wrong. */
    String problem() {
        return problem;
    }

    /** After {@link #FATAL}: why the consumer must stop. */
    ConsumerException fatal() {
        return fatal;
    }

    /** After {@link #TAKEN}: the headers of the answer taken. */
    StreamHeaders headers() {
        return headers;
    }

    /** The newest SCN the relay held at its last answer taken; -1 before the first. */
    long relayNewestScn() {
        return relayNewestScn;
    }

    /** Responses with events or a new checkpoint taken into the buffer. */
    long responses() {
        return responses;
    }

    /** Response body bytes taken into the buffer. */
    long bytesPulled() {
        return bytesPulled;
    }

    private int relayFailed(String why) {
        problem = why;
        return RELAY_FAILED;
    }

    private int fatal(ConsumerException why) {
        fatal = why;
        return FATAL;
    }

    private ConsumerException tooLarge(URI relay, String bytes) {
        return new ConsumerException(
                "relay response larger than the consumer buffer, raise buffer.capacity: relay="
                        + relay
                        + ", from="
                        + position.scn()
                        + ", bytes="
                        + bytes
                        + ", capacity="
                        + buffer.capacity());
    }
}
