package io.changegrid.relay.stream;

import io.changegrid.events.frame.EventFrame;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.AppendListener;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferReader;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.relay.process.FatalErrors;
import io.changegrid.relay.response.JsonResponse;
import io.changegrid.relay.security.Grant;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code /v1/stream} request from arrival to its single response. If events after the
 * checkpoint are held, they are sent at once; otherwise the request is parked: it answers as soon
 * as the buffer's writer appends (the append listener only schedules the work, so the writer never
 * waits), or empty when its timeout fires. Whichever comes first claims the response; the Jetty
 * callback is completed exactly once.
 *
 * <p>In place: a binary response of the whole stream (no subscription filter, every column granted)
 * is sent straight from the event buffer's direct memory, without any copy: the reader {@linkplain
 * EventBufferReader#pin pins} the entries (those back to back in one segment, up to {@code
 * maxBytes}, at least one transaction) and the pin is released once the socket took them. The
 * writer never waits for a pin: a pinned segment it must evict is swapped out of the log for a
 * spare ({@code http.zeroCopySegments} of them at most), so the bytes in flight are never
 * overwritten. Many consumers at the live edge share one pinned segment.
 *
 * <p>Copied: every other response (filtered or projected in place, JSON, pins refused) copies the
 * entries from the off-heap event buffer into a direct buffer sized from what the event buffer
 * holds above the checkpoint (at most {@code maxBytes}, at least the first whole transaction),
 * after taking that many bytes from the relay-wide {@link ServingMemory}. A request that cannot get
 * them waits parked, like one waiting for data, and is granted them in turn; the bytes are given
 * back once the response is written. A first look with an empty destination learns the size without
 * copying anything.
 *
 * <p>Why a direct buffer: the socket takes it as it is. A heap copy costs a second copy in the JDK,
 * into a temporary direct buffer as large as the write, which each Jetty thread then keeps (up to
 * {@code maxBytes} of direct memory per thread); and copies of tens of megabytes are humongous
 * objects to G1, which at {@code -Xmx256m} fail to allocate for want of contiguous regions while
 * most of the heap is free.
 *
 * <p>At the live edge, with {@code http.edgeLinger} set (off by default): a request that would get
 * less than half its {@code maxBytes} waits for more, at most that long after its arrival (and
 * never when {@code timeoutMs=0}), parked like one waiting for data, and is answered as soon as
 * half its {@code maxBytes} are there or the linger is over. Without it a consumer keeping up with
 * a fast source gets one response per transaction, each paying a request, a wake-up and a response
 * on both sides; a relay far ahead, or a request that finds half its {@code maxBytes} waiting, is
 * answered at once either way. It costs the median latency what it waits (docs/benchmarks.md, issue
 * 21).
 *
 * <p>However the request ends (answered, refused, or failed by Jetty when its consumer went away),
 * the exchange stops listening to the buffer and stops waiting for memory. Nothing after {@link
 * #start} touches the request's own state, which Jetty recycles once the request has completed: the
 * writer walks a snapshot of the listeners and may still call one that has just been removed.
 *
 * <p>An {@link Error} in any of the exchange's work ends the process ({@link FatalErrors}).
 *
 * <p>Threading: {@link #start} runs on a Jetty thread; wake-ups and grants run on Jetty's executor;
 * attempts are serialized on this object because a buffer reader is single-threaded.
 */
final class StreamExchange implements AppendListener, ServingMemory.Waiter {

    private static final Logger LOG = LoggerFactory.getLogger(StreamExchange.class);

    static final String BINARY_TYPE = "application/x-changegrid-frames";
    static final String JSON_TYPE = "application/x-ndjson";

    /** {@link #read}: the consumer asked to skip parts the transaction does not have. */
    private static final int BAD_PARTS = Integer.MIN_VALUE;

    /** The destination of a first look: the reader learns sizes without copying. */
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final EventBuffer buffer;
    private final StreamRequest params;
    private final EventBufferReader reader;
    private String badParts;
    private final StreamBody body;
    private final Subscription subscription;
    private final ServingMemory memory;
    private final ParkedPolls parkedPolls;
    private final LongSupplier sourceTimeMillis;
    private final ServingMeters meters;
    private final String principal;
    private final EventFrame counted = new EventFrame();
    private final ByteBufferPool pool;
    private final Executor executor;
    private final Scheduler scheduler;
    private final boolean inPlace;
    private boolean responded;
    private boolean parked;
    private boolean awaitingMemory;
    private Scheduler.Task timeout;

    /** When the request arrived: the edge linger counts from there. */
    private final long arrivalNanos = System.nanoTime();

    /** {@code http.edgeLinger} for this request: 0 when it must not wait. */
    private final long lingerNanos;

    /** The linger is over (or never began): answer with whatever there is. */
    private boolean lingered;

    private Scheduler.Task linger;

    StreamExchange(
            Request request,
            Response response,
            Callback callback,
            StreamServing serving,
            StreamRequest params,
            Grant grant) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.buffer = serving.buffer();
        this.params = params;
        this.reader = buffer.newReader();
        this.body = new StreamBody(serving.registry());
        this.subscription = new Subscription(params.plan(), grant);
        this.memory = serving.memory();
        this.parkedPolls = serving.parkedPolls();
        this.sourceTimeMillis = serving.sourceTimeMillis();
        this.meters = serving.meters();
        this.principal = grant.principal();
        this.pool = request.getComponents().getByteBufferPool();
        this.executor = request.getComponents().getExecutor();
        this.scheduler = request.getComponents().getScheduler();
        this.inPlace = params.format() == StreamFormat.BINARY && subscription.isEverything();
        // At most half the poll's own timeout, so that the timeout never ends a request that
        // lingers with data (0 when it must not wait at all).
        this.lingerNanos =
                Math.min(
                        serving.edgeLingerNanos(),
                        TimeUnit.MILLISECONDS.toNanos(params.timeoutMs()) / 2);
    }

    synchronized void start() {
        try {
            if (attempt()) {
                return;
            }
            if (params.timeoutMs() == 0) {
                respondEmpty();
                return;
            }
            if (!parkedPolls.tryPark()) {
                if (linger != null) {
                    // It had data and only lingered: answer with it rather than refuse.
                    lingered = true;
                    if (attempt()) {
                        return;
                    }
                }
                respondBusy();
                return;
            }
            parked = true;
            // A parked request is idle by design and its own timeout ends it: the connector's idle
            // timeout (30 s) must not fail a long-poll that may wait up to 300 s.
            request.addIdleTimeoutListener(idle -> false);
            request.addFailureListener(this::onRequestFailed);
            Request.addCompletionListener(request, failure -> onRequestCompleted());
            buffer.addListener(this);
            // An append between the attempt and the registration would never wake us: look again.
            if (!awaitingMemory && attempt()) {
                return;
            }
            timeout =
                    scheduler.schedule(this::onTimeout, params.timeoutMs(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            fail(e);
        } catch (Error e) {
            FatalErrors.halt("stream request start: from=" + params.from(), e);
        }
    }

    /** Writer thread: only hands the work over. */
    @Override
    public void onAppend(long newestScn) {
        if (newestScn > params.from()) {
            executor.execute(this::onData);
        }
    }

    /** A releasing thread: only hands the work over. */
    @Override
    public void onGranted(long bytes) {
        executor.execute(() -> onMemory(bytes));
    }

    private synchronized void onData() {
        try {
            if (!responded && !awaitingMemory) {
                attempt();
            }
        } catch (RuntimeException e) {
            fail(e);
        } catch (Error e) {
            FatalErrors.halt("stream wake-up: from=" + params.from(), e);
        }
    }

    private synchronized void onMemory(long bytes) {
        try {
            awaitingMemory = false;
            if (responded) {
                memory.release(bytes); // ended while the grant was on its way
                return;
            }
            readWith(bytes);
        } catch (RuntimeException e) {
            fail(e);
        } catch (Error e) {
            FatalErrors.halt("stream memory grant: from=" + params.from(), e);
        }
    }

    /** The edge linger is over: answer with whatever there is. */
    private synchronized void onLingered() {
        try {
            lingered = true;
            if (!responded && !awaitingMemory) {
                attempt();
            }
        } catch (RuntimeException e) {
            fail(e);
        } catch (Error e) {
            FatalErrors.halt("stream linger: from=" + params.from(), e);
        }
    }

    private synchronized void onTimeout() {
        try {
            if (!responded) {
                respondEmpty();
            }
        } catch (RuntimeException e) {
            fail(e);
        } catch (Error e) {
            FatalErrors.halt("stream timeout: from=" + params.from(), e);
        }
    }

    /** The consumer went away (connection closed, idle timeout) while the request was parked. */
    private synchronized void onRequestFailed(Throwable failure) {
        if (!responded) {
            finish();
            callback.failed(failure);
        }
    }

    /** However the request ended, a parked exchange stops listening to the buffer. */
    private synchronized void onRequestCompleted() {
        if (!responded) {
            finish();
        }
    }

    /** A bug while answering: the request still ends, once, as a 500 logged by Jetty. */
    private void fail(RuntimeException e) {
        if (!responded) {
            finish();
            callback.failed(e);
        } else {
            LOG.error("stream response failed after it was claimed: from={}", params.from(), e);
        }
    }

    /**
     * Looks once; responds and returns true if there was something to say. Returns false when there
     * is nothing yet, or when the copy waits for serving memory ({@link #awaitingMemory}).
     */
    private boolean attempt() {
        if (inPlace) {
            int pinned = reader.pin(checkpoint(), params.maxBytes());
            switch (pinned) {
                case EventBufferReader.NOTHING_YET:
                    return false;
                case EventBufferReader.TOO_OLD:
                    respondTooOld(reader.oldestScn());
                    return true;
                case EventBufferReader.NOT_PINNED:
                    break; // copy
                default:
                    if (lingers(reader.bytesCopied())) {
                        reader.pinned().release();
                        return false;
                    }
                    respondPinned();
                    return true;
            }
        }
        int look = read(NOTHING);
        switch (look) {
            case EventBufferReader.NOTHING_YET:
                return false;
            case EventBufferReader.TOO_OLD:
                respondTooOld(reader.oldestScn());
                return true;
            case BAD_PARTS:
                finish();
                JsonResponse.error(
                        response,
                        callback,
                        400,
                        "bad request: parameter=parts, value=" + params.parts() + ", " + badParts);
                return true;
            case EventBufferReader.DESTINATION_TOO_SMALL:
                break;
            default:
                throw new IllegalStateException(
                        "entries copied into an empty destination: result=" + look);
        }
        if (lingers(Math.min(params.maxBytes(), reader.availableBytes()))) {
            return false;
        }
        // Whole transactions only: at least the first, even above maxBytes.
        long wanted =
                Math.max(
                        reader.requiredBytes(),
                        Math.min(params.maxBytes(), reader.availableBytes()));
        if (!memory.acquireOrWait(wanted, this)) {
            awaitingMemory = true;
            return false;
        }
        return readWith(wanted);
    }

    /**
     * Whether a response of {@code bytes} waits for more (see the class doc); schedules the end of
     * the linger the first time it does.
     */
    private boolean lingers(long bytes) {
        if (lingered || lingerNanos == 0 || bytes >= params.maxBytes() / 2) {
            return false;
        }
        long left = arrivalNanos + lingerNanos - System.nanoTime();
        if (left <= 0) {
            lingered = true;
            return false;
        }
        if (linger == null) {
            linger = scheduler.schedule(this::onLingered, left, TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /** Copies into a buffer of the {@code granted} bytes and responds; see {@link #attempt}. */
    private boolean readWith(long granted) {
        int size = Math.toIntExact(granted);
        RetainableByteBuffer.Mutable pooled = pool.acquire(size, true);
        ByteBuffer destination = pooled.getByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        destination.clear().limit(size);
        Runnable giveBack = new GiveBack(pooled, memory, granted);
        int result = read(destination);
        if (result > 0) {
            try {
                respondEntries(destination, reader.bytesCopied(), reader.lastScn(), giveBack);
            } catch (RuntimeException e) {
                giveBack.run(); // a bug before the write took the buffer: keep the budget whole
                throw e;
            }
            return true;
        }
        giveBack.run();
        // Only an eviction since the first look changes the first entry above the checkpoint
        // (from=-1 follows the oldest held), or a bad parts count, which the look answers: look
        // again.
        return attempt();
    }

    /**
     * Reads after the checkpoint, leaving out the parts the consumer holds; a count of parts the
     * transaction does not have is the consumer's error, answered as a bad request.
     */
    private int read(ByteBuffer destination) {
        try {
            return reader.read(checkpoint(), params.parts(), destination);
        } catch (IllegalArgumentException e) {
            badParts = e.getMessage();
            return BAD_PARTS;
        }
    }

    /** The checkpoint to read after: {@code from=-1} means from the oldest entry held. */
    private long checkpoint() {
        return params.from() == -1
                ? Math.max(EventBuffer.NULL_SCN, buffer.highestEvictedScn())
                : params.from();
    }

    private void respondEntries(ByteBuffer entries, int length, long lastScn, Runnable written) {
        finish();
        headers(200, lastScn);
        if (reader.partsHeld() > 0) {
            response.getHeaders().put(StreamResponse.PARTS, Integer.toString(reader.partsHeld()));
        }
        int kept = body.filterInPlace(entries, length, subscription, params.parts() > 0);
        // Counted before the write: once written, the buffer goes back to the pool. A JSON
        // response counts its frames' bytes, as a binary one does.
        meters.served(principal, ServingMeters.events(entries, kept, counted), kept);
        if (params.format() == StreamFormat.JSON) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON_TYPE);
            body.writeJson(response, entries, kept, subscription, Callback.from(callback, written));
            return;
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, BINARY_TYPE);
        ByteBuffer view = entries.duplicate();
        view.limit(kept).position(0);
        response.write(true, view, Callback.from(callback, written));
    }

    /** Sends the entries {@link #reader} pinned, from the buffer's memory; see the class doc. */
    private void respondPinned() {
        Runnable unpin = new Unpin(reader.pinned());
        try {
            finish();
            headers(200, reader.lastScn());
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, BINARY_TYPE);
            ByteBuffer entries = reader.pinnedEntries();
            // Counted as a copied response is (served.* per principal), before the write.
            ByteBuffer counting = entries.slice().order(ByteOrder.LITTLE_ENDIAN);
            int length = counting.remaining();
            meters.served(principal, ServingMeters.events(counting, length, counted), length);
            response.write(true, entries, Callback.from(callback, unpin));
        } catch (RuntimeException e) {
            unpin.run(); // a bug before the write took the view: never leave a segment pinned
            throw e;
        }
    }

    private void respondEmpty() {
        finish();
        headers(200, params.from());
        response.getHeaders()
                .put(
                        HttpHeader.CONTENT_TYPE,
                        params.format() == StreamFormat.JSON ? JSON_TYPE : BINARY_TYPE);
        response.write(true, ByteBuffer.allocate(0), callback);
    }

    /** Refused: the relay holds as many parked polls as it may. */
    private void respondBusy() {
        finish();
        JsonResponse.error(
                response,
                callback,
                503,
                "too many parked polls: "
                        + RelaySettings.HTTP_MAX_PARKED_POLLS.path()
                        + "="
                        + parkedPolls.limit()
                        + "; retry later");
    }

    private void respondTooOld(long oldestScn) {
        finish();
        headers(410, params.from());
        JsonResponse.send(
                response,
                callback,
                StreamResponse.TOO_OLD,
                json -> {
                    json.writeStringField(
                            "error",
                            "checkpoint older than the buffer: from="
                                    + params.from()
                                    + ", oldestScn="
                                    + oldestScn
                                    + "; the consumer must bootstrap");
                    json.writeNumberField(StreamResponse.FROM_FIELD, params.from());
                    json.writeNumberField(StreamResponse.OLDEST_SCN_FIELD, oldestScn);
                });
    }

    private void headers(int status, long lastScn) {
        response.setStatus(status);
        response.getHeaders().put(StreamResponse.LAST_SCN, Long.toString(lastScn));
        response.getHeaders().put(StreamResponse.OLDEST_SCN, Long.toString(buffer.oldestScn()));
        response.getHeaders().put(StreamResponse.NEWEST_SCN, Long.toString(buffer.newestScn()));
        response.getHeaders()
                .put(StreamResponse.SOURCE_TIME, Long.toString(sourceTimeMillis.getAsLong()));
    }

    private void finish() {
        responded = true;
        if (linger != null) {
            linger.cancel();
        }
        if (awaitingMemory) {
            // If no longer waiting, the grant is on its way and onMemory gives it back.
            memory.cancel(this);
            awaitingMemory = false;
        }
        if (parked) {
            parkedPolls.unpark();
            buffer.removeListener(this);
            if (timeout != null) {
                timeout.cancel();
            }
        }
    }
}
