package io.changegrid.consumer.pull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.consumer.schema.SchemaCache;
import io.changegrid.protocol.RelayClient;
import io.changegrid.protocol.StreamParameters;
import io.changegrid.protocol.StreamResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls a source's stream from its relays into the consumer buffer: long-polls {@code GET
 * /v1/stream} on one relay, reads each response body once, straight into a claimed region of the
 * buffer, checks it ({@link ResponseCheck}), fetches the schemas its frames name, and publishes it.
 * Which relay to ask and what to do on errors is {@link RelayFailover}'s decision; a failover
 * resumes at the same position, because every relay of a source numbers transactions with the same
 * SCNs. A relay that answers but whose source time stopped changing for {@code fetch.stallTimeout}
 * ({@link StallWatch}: its fetcher hears nothing from the source) is left like a failed one.
 *
 * <p>The position it asks from is the checkpoint after the last response it published (at start,
 * the consumer's saved checkpoint), not the dispatcher's checkpoint: what is in the buffer is never
 * fetched twice.
 *
 * <p>Back pressure and copies: before each request it claims {@code fetch.maxBytes} of contiguous
 * buffer, waiting while the buffer is full, and reads the body straight into that claim (the relay
 * sends chunked bodies, so their length is only known at their end). A body larger than the claim,
 * which the relay sends when one transaction is larger than {@code fetch.maxBytes}, is read aside
 * and copied once more into a claim of its full size; one larger than {@code buffer.capacity} stops
 * the consumer with an error naming that setting.
 *
 * <p>Threading: {@link #run} on the puller thread, which owns all mutable state; {@link #stop} and
 * the getters from any thread. Jetty's client threads only deliver response bytes to the input
 * stream the puller thread reads.
 */
public final class Puller implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Puller.class);
    private static final JsonFactory JSON = new JsonFactory();
    private static final int MAX_ERROR_BODY = 512;
    private static final int UNKNOWN_SOURCE = -1;

    private final List<URI> relays;
    private final ConsumerBuffer buffer;
    private final List<SchemaCache> schemas;
    private final RelayClient http;
    private final RelayFailover failover;
    private final ResponseCheck check = new ResponseCheck();
    private final TimelineGuard timeline;
    private final StallWatch stall;
    private final String stallTimeoutText;
    private final BodyReader bodies;
    private final String fixedQuery;
    private final int requestBytes;
    private final long requestTimeoutMillis;
    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private long position;

    /** The relay last picked: moving to another starts its stall window afresh. */
    private int pickedRelay = -1;

    /** The source of the first relay that answered: every relay must read the same. */
    private int sourceId = UNKNOWN_SOURCE;

    private URI sourceRelay;

    /**
     * Per relay, the schema fingerprint of its first response: a relay restarted with policies that
     * transform otherwise serves other columns under table ids and versions this consumer has
     * cached, so a change stops the consumer rather than decode with stale schemas.
     */
    private final String[] schemaFingerprints;

    private volatile Request inFlight;
    private volatile boolean stopping;
    private volatile PullerState publishedState = PullerState.PICK_RELAY;
    private volatile int publishedRelay;
    private volatile long publishedPosition;
    private volatile long responses;
    private volatile long bytesPulled;
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
        this(config, buffer, schemas, http, startScn, null, adopted -> {});
    }

    /**
     * As above, for a checkpoint on {@code startTimeline} (null when it names none), which the
     * puller keeps to ({@link TimelineGuard}); {@code adoptTimeline} is told the timeline such a
     * checkpoint takes from the first relay that names one.
     */
    public Puller(
            ConsumerConfig config,
            ConsumerBuffer buffer,
            List<SchemaCache> schemas,
            RelayClient http,
            long startScn,
            String startTimeline,
            java.util.function.Consumer<String> adoptTimeline) {
        this.timeline = new TimelineGuard(startTimeline, adoptTimeline);
        this.relays = config.relays();
        this.schemaFingerprints = new String[relays.size()];
        this.buffer = buffer;
        this.schemas = schemas;
        this.http = http;
        List<String> names = new ArrayList<>();
        for (URI relay : relays) {
            names.add(relay.toString());
        }
        this.failover = new RelayFailover(names, config.fetchBackoff());
        this.stall = new StallWatch(config.stallTimeout().toNanos());
        this.stallTimeoutText = config.stallTimeout().toMillis() + "ms";
        this.requestBytes = Math.min(config.fetchMaxBytes(), buffer.capacity());
        this.bodies = new BodyReader(buffer, requestBytes);
        this.requestTimeoutMillis =
                config.pollTimeout().toMillis() + config.requestTimeout().toMillis();
        this.fixedQuery =
                parameter(StreamParameters.MAX_BYTES, Integer.toString(requestBytes))
                        + parameter(
                                StreamParameters.TIMEOUT_MS,
                                Long.toString(config.pollTimeout().toMillis()))
                        + parameter(StreamParameters.FORMAT, "binary")
                        + subscriptionQuery(config.subscription());
        this.position = startScn;
        this.publishedPosition = startScn;
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

    /** The checkpoint after the last response taken into the buffer. */
    public long position() {
        return publishedPosition;
    }

    /** Responses with events or a new checkpoint taken into the buffer. */
    public long responses() {
        return responses;
    }

    /** Response body bytes taken into the buffer. */
    public long bytesPulled() {
        return bytesPulled;
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
                position,
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
        int relayIndex = failover.relay();
        URI relay = relays.get(relayIndex);
        InputStreamResponseListener listener = new InputStreamResponseListener();
        Request request = http.stream(relay, position, fixedQuery, requestTimeoutMillis);
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
                relayFailed(relay, describe(e.getCause()));
                return;
            }
            try (InputStream body = listener.getInputStream()) {
                switch (response.getStatus()) {
                    case 200 -> receive(relayIndex, relay, response, body, claim);
                    case StreamResponse.TOO_OLD -> tooOld(relay, body);
                    case StreamResponse.NOT_FETCHING ->
                            relayFailed(relay, "relay not fetching: " + errorText(body));
                    case 400 ->
                            failover.onFatal(
                                    new ConsumerException(
                                            "relay rejected the stream request: url="
                                                    + url
                                                    + ", error="
                                                    + errorText(body)));
                    // Not granted: asking again or elsewhere does not change what the principal
                    // may read. A 401 (unknown token) is retried: during a token rotation the
                    // relay may not have re-read its token file yet.
                    case 403 ->
                            failover.onFatal(
                                    new ConsumerException(
                                            "relay refused the subscription: url="
                                                    + url
                                                    + ", error="
                                                    + errorText(body)));
                    default ->
                            relayFailed(
                                    relay,
                                    "unexpected status: status="
                                            + response.getStatus()
                                            + ", body="
                                            + errorText(body));
                }
            } catch (IOException e) {
                relayFailed(relay, describe(e));
            }
        } finally {
            inFlight = null;
        }
    }

    private void receive(int relayIndex, URI relay, Response response, InputStream body, int claim)
            throws IOException, InterruptedException {
        StreamHeaders headers;
        try {
            headers = StreamHeaders.read(response.getHeaders());
        } catch (IllegalArgumentException e) {
            relayFailed(relay, e.getMessage());
            return;
        }
        if (!sameSource(relay, headers.sourceId())) {
            return;
        }
        String otherTimeline = timeline.judge(relay, headers, position);
        if (otherTimeline != null) {
            failover.onFatal(new ConsumerException(otherTimeline));
            return;
        }
        long lastScn = headers.lastScn();
        String fingerprint = headers.schemaFingerprint();
        String known = schemaFingerprints[relayIndex];
        if (known != null && fingerprint != null && !known.equals(fingerprint)) {
            failover.onFatal(
                    new ConsumerException(
                            "relay serves other schemas than before (restarted with other"
                                    + " policies?): relay="
                                    + relay
                                    + ", was="
                                    + known
                                    + ", now="
                                    + fingerprint
                                    + "; restart the consumer to fetch them afresh"));
            return;
        }
        schemaFingerprints[relayIndex] = fingerprint;
        int length =
                bodies.read(
                        body, response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH), claim);
        switch (length) {
            case BodyReader.TRUNCATED -> {
                relayFailed(relay, "response body truncated");
                return;
            }
            case BodyReader.TOO_LARGE -> {
                tooLarge(relay, bodies.sizeText());
                return;
            }
            case BodyReader.CLOSED -> {
                failover.onStop();
                return;
            }
            default -> {}
        }
        int offset = bodies.offset();
        if (stopping) {
            failover.onStop();
            return;
        }
        if (!check.check(buffer.view(), offset, length, position, headers)) {
            relayFailed(relay, "corrupt response: from=" + position + ", " + check.problem());
            return;
        }
        try {
            schemas.get(relayIndex).ensureSchemas(buffer.view(), offset, length);
        } catch (IOException e) {
            relayFailed(relay, e.getMessage());
            return;
        }
        if (length > 0 || lastScn > position) {
            buffer.publish(length, lastScn, relayIndex);
            responses = responses + 1;
            bytesPulled = bytesPulled + length;
        }
        position = lastScn;
        publishedPosition = lastScn;
        failover.onPulled();
        long stalledNanos =
                stall.observe(relayIndex, headers.sourceTimeMillis(), System.nanoTime());
        if (stalledNanos != StallWatch.NOT_STALLED && !stopping && failover.onStalled()) {
            // What it sent is taken: the next relay continues from the same position.
            LOG.warn(
                    "relay's source time has not advanced, switching to the next: relay={},"
                            + " sourceTime={}, unchangedMillis={}, fetch.stallTimeout={}, from={}",
                    relay,
                    headers.sourceTimeMillis(),
                    TimeUnit.NANOSECONDS.toMillis(stalledNanos),
                    stallTimeoutText,
                    position);
        }
    }

    /**
     * Whether {@code relay} reads the source this consumer's first answer came from. SCNs of two
     * sources are unrelated, so a list of relays that mixes sources is a configuration error that
     * stops the consumer; continuing at one source's checkpoint on another would skip or repeat.
     */
    private boolean sameSource(URI relay, int relaySource) {
        if (sourceId == UNKNOWN_SOURCE) {
            sourceId = relaySource;
            sourceRelay = relay;
            return true;
        }
        if (relaySource == sourceId) {
            return true;
        }
        failover.onFatal(
                new ConsumerException(
                        "relays of different sources in one consumer: relay="
                                + relay
                                + ", sourceId="
                                + relaySource
                                + ", expected="
                                + sourceId
                                + " (the source of "
                                + sourceRelay
                                + "); list only relays of one source"));
        return false;
    }

    private void tooOld(URI relay, InputStream body) throws IOException {
        long oldest = -1;
        try (JsonParser json = JSON.createParser(body)) {
            while (json.nextToken() != null) {
                if (json.currentToken() == JsonToken.FIELD_NAME
                        && StreamResponse.OLDEST_SCN_FIELD.equals(json.currentName())
                        && json.nextToken() == JsonToken.VALUE_NUMBER_INT) {
                    oldest = json.getLongValue();
                }
            }
        }
        LOG.warn(
                "relay no longer holds the checkpoint: relay={}, checkpoint={}, oldestScn={}",
                relay,
                position,
                oldest);
        failover.onTooOld(position, oldest);
    }

    private void tooLarge(URI relay, String bytes) {
        failover.onFatal(
                new ConsumerException(
                        "relay response larger than the consumer buffer, raise buffer.capacity: relay="
                                + relay
                                + ", from="
                                + position
                                + ", bytes="
                                + bytes
                                + ", capacity="
                                + buffer.capacity()));
    }

    private void relayFailed(URI relay, String reason) {
        if (stopping) {
            failover.onStop();
            return;
        }
        LOG.warn(
                "relay failed, switching to the next: relay={}, from={}, reason={}",
                relay,
                position,
                reason);
        failover.onRelayError();
    }

    /** An exception in a log line: its type and the start of its message (Jetty's can be long). */
    private static String describe(Throwable error) {
        if (error == null) {
            return "unknown error";
        }
        String message = String.valueOf(error.getMessage());
        return error.getClass().getSimpleName()
                + ": "
                + (message.length() > 160 ? message.substring(0, 160) + "..." : message);
    }

    private static String errorText(InputStream body) throws IOException {
        byte[] text = body.readNBytes(MAX_ERROR_BODY);
        return new String(text, StandardCharsets.UTF_8);
    }

    private static String subscriptionQuery(Subscription subscription) {
        StringBuilder query = new StringBuilder();
        String filter = subscription.filterJson();
        if (filter != null) {
            return parameter(StreamParameters.FILTER, filter);
        }
        if (!subscription.tables().isEmpty()) {
            query.append(
                    parameter(StreamParameters.TABLES, String.join(",", subscription.tables())));
        }
        if (subscription.partitions() > 1) {
            query.append(
                            parameter(
                                    StreamParameters.PARTITION,
                                    Integer.toString(subscription.partition())))
                    .append(
                            parameter(
                                    StreamParameters.PARTITIONS,
                                    Integer.toString(subscription.partitions())));
        }
        return query.toString();
    }

    /** {@code &name=value}, the value URL-encoded. */
    private static String parameter(String name, String value) {
        return "&" + name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
