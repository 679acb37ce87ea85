package io.changegrid.consumer.pull;

import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.config.TooOldAction;
import io.changegrid.consumer.schema.SchemaCache;
import io.changegrid.protocol.RelayClient;
import io.changegrid.protocol.StreamResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls a source's stream from its relays into the consumer buffer: long-polls {@code GET
 * /v1/stream} on one relay, reads each response body once, straight into a claimed region of the
 * buffer, checks it ({@link ResponseCheck}), fetches the schemas its frames name, and publishes it
 * ({@link AnswerIntake}). Which relay to ask and what to do on errors is {@link RelayFailover}'s
 * decision; a failover resumes at the same position, because every relay of a source numbers
 * transactions with the same SCNs. A relay that answers but whose source time stopped changing for
 * {@code fetch.stallTimeout} ({@link StallWatch}: its fetcher hears nothing from the source) is
 * left like a failed one.
 *
 * <p>The position it asks from ({@link StreamPosition}) is the checkpoint after the last response
 * it published (at start, the consumer's saved checkpoint), not the dispatcher's checkpoint: what
 * is in the buffer is never fetched twice.
 *
 * <p>Back pressure and copies: before each request it claims {@code fetch.maxBytes} of contiguous
 * buffer, waiting while the buffer is full, and reads the body straight into that claim (the relay
 * sends chunked bodies, so their length is only known at their end). A body larger than the claim,
 * which the relay sends when one transaction is larger than {@code fetch.maxBytes}, is read aside
 * and copied once more into a claim of its full size; one larger than {@code buffer.capacity} stops
 * the consumer with an error naming that setting.
 *
 * <p>Snapshots (docs/bootstrap.md): while one runs, every request carries the snapshot cursor the
 * last response gave ({@code start} for the first), and each response is published with the cursor
 * after it, for the dispatcher to checkpoint once the response's chunk was delivered. When every
 * relay answers 410 and {@code bootstrap.onTooOld} is {@code snapshot}, it begins a snapshot at the
 * relay's newest SCN ({@code from=-1&snapshot=start}).
 *
 * <p>Transactions in parts (docs/consumer.md): an answer that ends inside one names the parts held
 * ({@code X-Changegrid-Parts}); the puller asks on with them ({@code parts}) from the same relay.
 * On any relay failure it asks again with {@code parts} absent, and the transaction comes again
 * from its start, which the dispatcher sees in the entry ({@link ConsumerBuffer#entryParts}). The
 * dispatcher may ask it to fetch again from a checkpoint ({@link ConsumerBuffer#requestRestart}).
 *
 * <p>Threading: {@link #run} on the puller thread, which owns all mutable state; {@link #stop} and
 * the getters from any thread. Jetty's client threads only deliver response bytes to the input
 * stream the puller thread reads.
 */
public final class Puller implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Puller.class);

    private final List<URI> relays;
    private final ConsumerBuffer buffer;
    private final RelayClient http;
    private final RelayFailover failover;
    private final TimelineGuard timeline;
    private final StallWatch stall;
    private final String stallTimeoutText;
    private final AnswerIntake intake;
    private final String fixedQuery;
    private final int requestBytes;
    private final long requestTimeoutMillis;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final StreamPosition position;

    /** The relay last picked: moving to another starts its stall window afresh. */
    private int pickedRelay = -1;

    private volatile Request inFlight;
    private volatile boolean stopping;
    private volatile PullerState publishedState = PullerState.PICK_RELAY;
    private volatile int publishedRelay;
    private volatile ConsumerException failure;

    /**
     * @param config the relays, subscription and fetch settings
     * @param buffer the consumer buffer this puller is the only writer of
     * @param schemas one schema cache per relay, in the order of {@code config.relays()}
     * @param http a started HTTP client
     * @param startScn the checkpoint to continue after, -1 for the oldest the relay holds
     */
    public Puller(
            ConsumerConfig config,
            ConsumerBuffer buffer,
            List<SchemaCache> schemas,
            RelayClient http,
            long startScn) {
        this(config, buffer, schemas, http, startScn, null, null, adopted -> {});
    }

    /**
     * A puller that continues a snapshot, or begins one, on a timeline; the other parameters as
     * {@link #Puller(ConsumerConfig, ConsumerBuffer, List, RelayClient, long)}.
     *
     * @param startSnapshot the snapshot cursor to continue with ({@code start} to begin one, at the
     *     relay's newest SCN when {@code startScn} is -1), or null for the live stream only
     * @param startTimeline the timeline of the checkpoint (null when it names none), which the
     *     puller keeps to ({@link TimelineGuard})
     * @param adoptTimeline told the timeline such a checkpoint takes from the first relay that
     *     names one
     */
    public Puller(
            ConsumerConfig config,
            ConsumerBuffer buffer,
            List<SchemaCache> schemas,
            RelayClient http,
            long startScn,
            String startSnapshot,
            String startTimeline,
            java.util.function.Consumer<String> adoptTimeline) {
        this.position = new StreamPosition(startScn, startSnapshot);
        this.timeline = new TimelineGuard(startTimeline, adoptTimeline);
        this.relays = config.relays();
        this.buffer = buffer;
        this.http = http;
        List<String> names = new ArrayList<>();
        for (URI relay : relays) {
            names.add(relay.toString());
        }
        this.failover =
                new RelayFailover(
                        names, config.fetchBackoff(), config.onTooOld() == TooOldAction.SNAPSHOT);
        this.stall = new StallWatch(config.stallTimeout().toNanos());
        this.stallTimeoutText = config.stallTimeout().toMillis() + "ms";
        this.requestBytes = Math.min(config.fetchMaxBytes(), buffer.capacity());
        this.intake =
                new AnswerIntake(
                        buffer,
                        relays.size(),
                        schemas,
                        requestBytes,
                        timeline,
                        position,
                        () -> stopping);
        this.requestTimeoutMillis =
                config.pollTimeout().toMillis() + config.requestTimeout().toMillis();
        this.fixedQuery = StreamQuery.fixed(config, requestBytes);
    }

    /** Schema sources for each relay of {@code config}, fetching over {@code http}. */
    public static List<SchemaCache> schemaCaches(ConsumerConfig config, RelayClient http) {
        List<SchemaCache> caches = new ArrayList<>();
        for (URI relay : config.relays()) {
            caches.add(
                    new SchemaCache(new RelaySchemaSource(http, relay, config.requestTimeout())));
        }
        return caches;
    }

    @Override
    public void run() {
        try {
            while (!failover.state().isTerminal()) {
                switch (failover.state()) {
                    case PICK_RELAY -> pick();
                    case STREAMING -> pull();
                    case BACKOFF -> backOff();
                    case FAILED, STOPPED -> {}
                }
                publishedState = failover.state();
                publishedRelay = failover.relay();
            }
            failure = failover.failure();
            if (failure != null) {
                LOG.error("puller stopped: {}", failure.getMessage());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failover.onStop();
        } catch (RuntimeException | Error e) {
            failure = new ConsumerException("puller stopped on a bug: " + e, e);
            LOG.error("puller stopped on a bug", e);
        } finally {
            publishedState = failover.state().isTerminal() ? failover.state() : PullerState.FAILED;
            buffer.finish();
        }
    }

    /** Asks the puller to stop: a request in flight is aborted. Returns at once. */
    public void stop() {
        stopping = true;
        stopRequested.countDown();
        Request request = inFlight;
        if (request != null) {
            try {
                request.abort(new IOException("consumer stopping"));
            } catch (RuntimeException e) {
                // Jetty's client can fail an abort that races with send() on the pulling thread
                // (an NPE from an exchange whose listeners are not set yet). The pulling thread
                // aborts the request itself once send() has returned and it sees the flag, so
                // nothing is left waiting; the stop must not fail the consumer's close.
                LOG.debug("abort raced with send; the pulling thread aborts instead", e);
            }
        }
    }

    public PullerState state() {
        return publishedState;
    }

    /** The relay asked now, or last. */
    public URI relay() {
        return relays.get(publishedRelay);
    }

    /**
     * The timeline the consumer is on: the checkpoint's, or the one the first relay named; null
     * while neither names one. Any thread.
     */
    public String timeline() {
        return timeline.timeline();
    }

    /** The checkpoint after the last response taken into the buffer. */
    public long position() {
        return position.published();
    }

    /** The newest SCN the relay held at its last answer taken; -1 before the first. */
    public long relayNewestScn() {
        return intake.relayNewestScn();
    }

    /** Whether the last answer taken brought everything the relay held. */
    public boolean caughtUp() {
        long newest = intake.relayNewestScn();
        return newest >= 0 && position.published() >= newest;
    }

    /** Responses with events or a new checkpoint taken into the buffer. */
    public long responses() {
        return intake.responses();
    }

    /** Response body bytes taken into the buffer. */
    public long bytesPulled() {
        return intake.bytesPulled();
    }

    /** Why the puller failed, or null. */
    public ConsumerException failure() {
        return failure;
    }

    private void pick() {
        if (stopping) {
            failover.onStop();
            return;
        }
        if (failover.relay() != pickedRelay) {
            pickedRelay = failover.relay();
            stall.reset();
        }
        failover.onPicked();
    }

    private void backOff() throws InterruptedException {
        long nanos = failover.backoffNanos();
        LOG.info(
                "every relay failed, backing off: relays={}, from={}, waitMillis={}",
                relays,
                position.scn(),
                TimeUnit.NANOSECONDS.toMillis(nanos));
        if (stopRequested.await(nanos, TimeUnit.NANOSECONDS)) {
            failover.onStop();
        } else {
            failover.onBackoffElapsed();
        }
    }

    private void pull() throws InterruptedException {
        // Room for a whole response before asking for one (back pressure): the body is read
        // straight into this claim, the only copy.
        int claim = stopping ? ConsumerBuffer.CLOSED : buffer.claim(requestBytes);
        if (claim < 0) {
            failover.onStop();
            return;
        }
        position.restartIfAsked(buffer);
        int relayIndex = failover.relay();
        URI relay = relays.get(relayIndex);
        InputStreamResponseListener listener = new InputStreamResponseListener();
        String sentSnapshot = position.snapshot();
        int sentParts = position.parts();
        Request request =
                http.stream(
                        relay,
                        position.scn(),
                        fixedQuery
                                + StreamQuery.snapshot(sentSnapshot)
                                + StreamQuery.parts(sentParts),
                        requestTimeoutMillis);
        String url = request.getURI().toString();
        inFlight = request;
        try {
            if (stopping) {
                failover.onStop();
                return;
            }
            request.send(listener);
            if (stopping) {
                request.abort(new IOException("consumer stopping")); // see stop()
            }
            Response response;
            try {
                response = listener.get(requestTimeoutMillis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                request.abort(e);
                relayFailed(relay, "no answer in time: timeoutMillis=" + requestTimeoutMillis);
                return;
            } catch (ExecutionException e) {
                relayFailed(relay, ErrorBodies.describe(e.getCause()));
                return;
            }
            try (InputStream body = listener.getInputStream()) {
                switch (response.getStatus()) {
                    case 200 ->
                            take(relayIndex, relay, response, body, claim, sentSnapshot, sentParts);
                    case StreamResponse.TOO_OLD -> tooOld(relay, body);
                    case StreamResponse.NOT_FETCHING ->
                            relayFailed(relay, "relay not fetching: " + ErrorBodies.text(body));
                    // A relay that no longer has the parts asked for (restarted in between):
                    // asking afresh gets the transaction from its start.
                    case 400 -> {
                        if (sentParts > 0) {
                            relayFailed(
                                    relay,
                                    "relay rejected the parts held: " + ErrorBodies.text(body));
                        } else {
                            failover.onFatal(
                                    new ConsumerException(
                                            "relay rejected the stream request: url="
                                                    + url
                                                    + ", error="
                                                    + ErrorBodies.text(body)));
                        }
                    }
                    // Not granted: asking again or elsewhere does not change what the principal
                    // may read. A 401 (unknown token) is retried: during a token rotation the
                    // relay may not have re-read its token file yet.
                    case 403 ->
                            failover.onFatal(
                                    new ConsumerException(
                                            "relay refused the subscription: url="
                                                    + url
                                                    + ", error="
                                                    + ErrorBodies.text(body)));
                    default ->
                            relayFailed(
                                    relay,
                                    "unexpected status: status="
                                            + response.getStatus()
                                            + ", body="
                                            + ErrorBodies.text(body));
                }
            } catch (IOException e) {
                relayFailed(relay, ErrorBodies.describe(e));
            }
        } finally {
            inFlight = null;
        }
    }

    private void take(
            int relayIndex,
            URI relay,
            Response response,
            InputStream body,
            int claim,
            String sentSnapshot,
            int sentParts)
            throws IOException, InterruptedException {
        switch (intake.take(relayIndex, relay, response, body, claim, sentSnapshot, sentParts)) {
            case AnswerIntake.RELAY_FAILED -> relayFailed(relay, intake.problem());
            case AnswerIntake.FATAL -> failover.onFatal(intake.fatal());
            case AnswerIntake.STOPPED -> failover.onStop();
            default -> taken(relayIndex, relay, intake.headers());
        }
    }

    private void taken(int relayIndex, URI relay, StreamHeaders headers) {
        failover.onPulled();
        long stalledNanos =
                stall.observe(relayIndex, headers.sourceTimeMillis(), System.nanoTime());
        if (stalledNanos != StallWatch.NOT_STALLED && !stopping && failover.onStalled()) {
            position.dropParts();
            // What it sent is taken: the next relay continues from the same position.
            LOG.warn(
                    "relay's source time has not advanced, switching to the next: relay={},"
                            + " sourceTime={}, unchangedMillis={}, fetch.stallTimeout={}, from={}",
                    relay,
                    headers.sourceTimeMillis(),
                    TimeUnit.NANOSECONDS.toMillis(stalledNanos),
                    stallTimeoutText,
                    position.scn());
        }
    }

    private void tooOld(URI relay, InputStream body) throws IOException {
        long oldest = ErrorBodies.oldestScn(body);
        LOG.warn(
                "relay no longer holds the checkpoint: relay={}, checkpoint={}, oldestScn={}",
                relay,
                position.scn(),
                oldest);
        position.dropParts();
        failover.onTooOld(position.scn(), oldest);
        if (failover.takeSnapshotRestart()) {
            // bootstrap.onTooOld: snapshot. What the buffer holds is still delivered; the entries
            // after it begin the snapshot at the relay's newest SCN.
            LOG.warn(
                    "every relay answered 410, beginning a snapshot (bootstrap.onTooOld=snapshot):"
                            + " checkpoint={}, oldestScn={}",
                    position.scn(),
                    oldest);
            position.beginSnapshot();
        }
    }

    private void relayFailed(URI relay, String reason) {
        // A relay asked afresh sends the transaction in parts from its start.
        position.dropParts();
        if (stopping) {
            failover.onStop();
            return;
        }
        LOG.warn(
                "relay failed, switching to the next: relay={}, from={}, reason={}",
                relay,
                position.scn(),
                reason);
        failover.onRelayError();
    }
}
