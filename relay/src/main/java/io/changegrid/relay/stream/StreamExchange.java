package io.changegrid.relay.stream;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.AppendListener;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferReader;
import io.changegrid.relay.response.JsonResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
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
 * <p>However the request ends (answered, or failed by Jetty when its consumer went away), the
 * exchange stops listening to the buffer. Nothing after {@link #start} touches the request's own
 * state, which Jetty recycles once the request has completed: the writer walks a snapshot of the
 * listeners and may still call one that has just been removed.
 *
 * <p>Threading: {@link #start} runs on a Jetty thread; wake-ups run on Jetty's executor; attempts
 * are serialized on this object because a buffer reader is single-threaded.
 */
final class StreamExchange implements AppendListener {

    private static final Logger LOG = LoggerFactory.getLogger(StreamExchange.class);

    static final String BINARY_TYPE = "application/x-changegrid-frames";
    static final String JSON_TYPE = "application/x-ndjson";

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final EventBuffer buffer;
    private final StreamRequest params;
    private final EventBufferReader reader;
    private final StreamBody body;
    private final Subscription subscription;
    private final ByteBufferPool pool;
    private final Executor executor;
    private final Scheduler scheduler;
    private boolean responded;
    private boolean parked;
    private Scheduler.Task timeout;

    StreamExchange(
            Request request,
            Response response,
            Callback callback,
            EventBuffer buffer,
            SchemaRegistry registry,
            StreamRequest params) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.buffer = buffer;
        this.params = params;
        this.reader = buffer.newReader();
        this.body = new StreamBody(registry);
        this.subscription = new Subscription(params.plan());
        this.pool = request.getComponents().getByteBufferPool();
        this.executor = request.getComponents().getExecutor();
        this.scheduler = request.getComponents().getScheduler();
    }

    synchronized void start() {
        try {
            if (attempt() || params.timeoutMs() == 0) {
                if (!responded) {
                    respondEmpty();
                }
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
            if (attempt()) {
                return;
            }
            timeout =
                    scheduler.schedule(this::onTimeout, params.timeoutMs(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Writer thread: only hands the work over. */
    @Override
    public void onAppend(long newestScn) {
        if (newestScn > params.from()) {
            executor.execute(this::onData);
        }
    }

    private synchronized void onData() {
        try {
            if (!responded) {
                attempt();
            }
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    private synchronized void onTimeout() {
        try {
            if (!responded) {
                respondEmpty();
            }
        } catch (RuntimeException e) {
            fail(e);
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

    /** Reads once; responds and returns true if there was something to say. */
    private boolean attempt() {
        int size = params.maxBytes();
        while (true) {
            RetainableByteBuffer.Mutable pooled = pool.acquire(size, false);
            ByteBuffer destination = pooled.getByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            destination.clear();
            int result = reader.read(checkpoint(), destination);
            if (result == EventBufferReader.DESTINATION_TOO_SMALL) {
                pooled.release();
                size = reader.requiredBytes(); // whole transactions only: send at least one
                continue;
            }
            if (result == EventBufferReader.NOTHING_YET) {
                pooled.release();
                return false;
            }
            if (result == EventBufferReader.TOO_OLD) {
                pooled.release();
                respondTooOld(reader.oldestScn());
                return true;
            }
            respondEntries(pooled, destination, reader.bytesCopied(), reader.lastScn());
            return true;
        }
    }

    /** The checkpoint to read after: {@code from=-1} means from the oldest entry held. */
    private long checkpoint() {
        return params.from() == -1
                ? Math.max(EventBuffer.NULL_SCN, buffer.highestEvictedScn())
                : params.from();
    }

    private void respondEntries(
            RetainableByteBuffer pooled, ByteBuffer entries, int length, long lastScn) {
        finish();
        headers(200, lastScn);
        if (params.format() == StreamFormat.JSON) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON_TYPE);
            body.writeJson(
                    response,
                    entries,
                    length,
                    subscription,
                    Callback.from(callback, pooled::release));
            return;
        }
        int kept = body.filterInPlace(entries, length, subscription);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, BINARY_TYPE);
        ByteBuffer view = entries.duplicate();
        view.limit(kept).position(0);
        response.write(true, view, Callback.from(callback, pooled::release));
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
    }

    private void finish() {
        responded = true;
        if (parked) {
            buffer.removeListener(this);
            if (timeout != null) {
                timeout.cancel();
            }
        }
    }
}
