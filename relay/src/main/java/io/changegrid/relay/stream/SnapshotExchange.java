package io.changegrid.relay.stream;

import io.changegrid.events.frame.CorruptFrameException;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.KeyImages;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.NoPrimaryKeyException;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.protocol.SnapshotCursor;
import io.changegrid.protocol.StreamParameters;
import io.changegrid.protocol.StreamResponse;
import io.changegrid.relay.buffer.EventBuffer;
import io.changegrid.relay.buffer.EventBufferReader;
import io.changegrid.relay.process.FatalErrors;
import io.changegrid.relay.response.JsonResponse;
import io.changegrid.relay.snapshot.ChunkFrames;
import io.changegrid.relay.snapshot.ReadChunk;
import io.changegrid.relay.snapshot.SnapshotService;
import io.changegrid.relay.snapshot.TouchedKeys;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code /v1/stream?snapshot=...} request (docs/bootstrap.md): the live transactions after the
 * checkpoint, and when the consumer is caught up, one snapshot chunk placed right after the live
 * transactions below the chunk's high watermark, with the keys they touched dropped from it. The
 * {@link StreamResponse#SNAPSHOT} header carries the cursor after the response.
 *
 * <ul>
 *   <li>{@code snapshot=start} is answered with the live transactions and the first table's start
 *       cursor, without a chunk: every table's copy then begins with a request naming it, where a
 *       consumer empties its copy of the table ({@link SnapshotCursor#begunTable}).
 *   <li>A consumer that is not caught up (more after its checkpoint than {@code maxBytes}) gets
 *       live transactions only, its cursor echoed: chunks are read only when the window is small.
 *   <li>While chunk reads are paused ({@code POST /v1/snapshot/pause}), a caught-up consumer's
 *       request waits like a long poll and gets live transactions only, its cursor echoed.
 *   <li>A chunk that cannot be placed (the fetcher did not pass its high watermark in time, the
 *       window does not fit {@code maxBytes}, or holds a schema change of the table) is discarded
 *       and read again on the next request.
 * </ul>
 *
 * <p>The work blocks (a source read, a wait for the fetcher), so it runs on Jetty's executor, never
 * on a selector thread; it answers without parking: a snapshotting consumer always has work.
 * Response copies come out of {@code http.servingMemory} (three times {@code maxBytes} a request;
 * the chunk's rows and frames, bounded by {@code snapshot.chunkSize}, do not), and at most {@code
 * snapshot.maxRequests} requests are served at once; beyond, 503. The live path ({@link
 * StreamExchange}, {@link StreamBody}) is used as it is.
 */
final class SnapshotExchange implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotExchange.class);

    /** How often a request of a paused snapshot looks for a new transaction or the resume. */
    private static final Duration PAUSED_LOOK = Duration.ofMillis(20);

    private final Request request;
    private final Response response;
    private final Ending callback;
    private final ServingMemory memory;
    private final EventBuffer buffer;
    private final StreamBody body;
    private final Subscription subscription;
    private final StreamRequest params;
    private final String snapshot;
    private final SnapshotService service;

    SnapshotExchange(
            Request request,
            Response response,
            Callback callback,
            StreamServing serving,
            StreamRequest params,
            String snapshot,
            SnapshotService service) {
        this.request = request;
        this.response = response;
        this.callback = new Ending(callback);
        this.memory = serving.memory();
        this.buffer = serving.buffer();
        this.body = new StreamBody(serving.registry());
        this.subscription = new Subscription(params.plan());
        this.params = params;
        this.snapshot = snapshot;
        this.service = service;
    }

    void start() {
        if (!service.tryBeginRequest()) {
            JsonResponse.error(
                    response,
                    callback,
                    503,
                    "too many snapshot requests at once: snapshot.maxRequests="
                            + service.chunks().settings().maxRequests()
                            + "; try again shortly");
            return;
        }
        callback.onEnd(service::endRequest);
        try {
            request.getComponents().getExecutor().execute(this);
        } catch (RejectedExecutionException e) {
            callback.failed(e); // a stopping or saturated server: gives the place back
        }
    }

    @Override
    public void run() {
        try {
            awaitMemory();
            serve();
        } catch (BadRequestException e) {
            JsonResponse.error(response, callback, 400, e.getMessage());
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            // A source without snapshots, a table without a primary key, a column type not read.
            JsonResponse.error(
                    response,
                    callback,
                    400,
                    "bad parameter: name=" + StreamParameters.SNAPSHOT + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
        } catch (Exception e) {
            LOG.warn("snapshot request failed: from={}, snapshot={}", params.from(), snapshot, e);
            JsonResponse.error(response, callback, 503, "snapshot chunk not served: " + e);
        } catch (Error e) {
            FatalErrors.halt("snapshot request: from=" + params.from(), e);
        }
    }

    private void serve() throws Exception {
        if (params.format() != StreamFormat.BINARY) {
            throw new BadRequestException(
                    StreamParameters.FORMAT, params.format().name(), "snapshots are served binary");
        }
        List<TableSchema> tables = service.tables(params.plan());
        SnapshotCursor cursor = cursor(tables);
        // from=-1 begins a snapshot at the newest SCN held (a consumer without a checkpoint, or
        // one bootstrapping after a 410): the copy makes the older transactions unnecessary.
        long checkpoint =
                params.from() == -1
                        ? Math.max(
                                EventBuffer.NULL_SCN,
                                snapshot.equals(SnapshotCursor.START)
                                        ? Math.max(buffer.newestScn(), buffer.highestEvictedScn())
                                        : buffer.highestEvictedScn())
                        : params.from();

        // Caught up? Only then is a chunk's window small enough to read one.
        long newestBefore = buffer.newestScn();
        Live live = readLive(checkpoint, params.maxBytes());
        if (live == null) {
            return; // answered 410
        }
        if (cursor == null) {
            respond(live, live.length, checkpoint, null, SnapshotCursor.COMPLETE);
            return;
        }
        if (snapshot.equals(SnapshotCursor.START)) {
            // No chunk yet: the answer names the first table, so that the consumer's next request
            // begins that table's copy by name (SnapshotCursor#begunTable). A table that cannot be
            // copied is refused now, before the consumer empties any of its copies.
            for (TableSchema each : tables) {
                NoPrimaryKeyException.check(each);
            }
            respond(live, live.length, checkpoint, null, cursor.toText());
            return;
        }
        if (live.lastScn < newestBefore) {
            respond(live, live.length, checkpoint, null, cursor.toText());
            return;
        }
        if (service.chunks().paused()) {
            respondPaused(live, checkpoint, newestBefore, cursor);
            return;
        }
        TableSchema table = SnapshotService.find(tables, cursor.database(), cursor.table()).get();
        Object[] afterKey = cursor.atTableStart() ? null : key(table, cursor);
        Optional<ReadChunk> read = service.chunks().read(table, afterKey);
        if (read.isEmpty()) {
            respond(live, live.length, checkpoint, null, cursor.toText());
            return;
        }
        ReadChunk chunk = read.get();

        // Every transaction below the high watermark is in the buffer now: take the window.
        long newest = buffer.newestScn();
        Live window = readLive(checkpoint, Math.max(params.maxBytes(), live.length));
        if (window == null) {
            return;
        }
        int cut = window.cutAt(chunk.high());
        boolean whole = cut < window.length || window.lastScn >= newest;
        TableRoute route = service.route(table);
        TouchedKeys touched =
                TouchedKeys.scan(window.bytes, cut, route.output().tableId(), service.published());
        if (!whole || touched.schemaChanged()) {
            LOG.debug(
                    "snapshot chunk discarded: table={}, whole={}, schemaChanged={}",
                    table.qualifiedName(),
                    whole,
                    touched.schemaChanged());
            respond(window, cut, checkpoint, null, cursor.toText());
            return;
        }
        String next = next(tables, table, chunk);
        ChunkFrames frames = new ChunkFrames();
        frames.encode(
                service.sourceId(),
                chunk,
                route,
                touched,
                subscription::wants,
                service.published(),
                next.equals(SnapshotCursor.COMPLETE));
        respond(
                window,
                cut,
                checkpoint,
                frames.worthSending(next.equals(SnapshotCursor.COMPLETE)) ? frames : null,
                next);
    }

    /** The request's cursor; null when the subscription has no table to copy. */
    private SnapshotCursor cursor(List<TableSchema> tables) {
        if (snapshot.equals(SnapshotCursor.START)) {
            return tables.isEmpty()
                    ? null
                    : SnapshotCursor.startOf(tables.get(0).database(), tables.get(0).table(), 0);
        }
        if (snapshot.equals(SnapshotCursor.COMPLETE)) {
            throw new BadRequestException(
                    StreamParameters.SNAPSHOT,
                    snapshot,
                    "the snapshot is complete: continue without the parameter");
        }
        SnapshotCursor cursor;
        try {
            cursor = SnapshotCursor.parse(snapshot);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(StreamParameters.SNAPSHOT, snapshot, e.getMessage());
        }
        if (SnapshotService.find(tables, cursor.database(), cursor.table()).isEmpty()) {
            throw new BadRequestException(
                    StreamParameters.SNAPSHOT,
                    snapshot,
                    "the cursor's table is not in this subscription's snapshot here: table="
                            + cursor.database()
                            + "."
                            + cursor.table());
        }
        return cursor;
    }

    private Object[] key(TableSchema table, SnapshotCursor cursor) {
        try {
            return KeyImages.read(table, cursor.key());
        } catch (CorruptFrameException e) {
            throw new BadRequestException(
                    StreamParameters.SNAPSHOT,
                    snapshot,
                    "the cursor's key does not fit the table's key: " + e.getMessage());
        }
    }

    /** The cursor after {@code chunk}: the last key read, the next table, or complete. */
    private static String next(List<TableSchema> tables, TableSchema table, ReadChunk chunk) {
        if (!chunk.last()) {
            return new SnapshotCursor(
                            chunk.high(),
                            table.database(),
                            table.table(),
                            KeyImages.ofRow(table, chunk.lastRow()))
                    .toText();
        }
        return SnapshotService.next(tables, table)
                .map(t -> SnapshotCursor.startOf(t.database(), t.table(), chunk.high()).toText())
                .orElse(SnapshotCursor.COMPLETE);
    }

    /**
     * Takes this request's copies out of {@code http.servingMemory}, waiting for them, and gives
     * them back once the response ends: a live read and the window's read of at most {@code
     * maxBytes} each, and the response's copy. (A first transaction above {@code maxBytes} is read
     * whole, as on the live path.) One grant per request, never a second while holding one, so
     * requests cannot wait on each other; {@code snapshot.maxRequests} bounds the threads waiting.
     */
    private void awaitMemory() throws InterruptedException {
        long bytes = 3L * params.maxBytes();
        CountDownLatch granted = new CountDownLatch(1);
        ServingMemory.Waiter waiter = b -> granted.countDown();
        if (!memory.acquireOrWait(bytes, waiter)) {
            try {
                granted.await();
            } catch (InterruptedException e) {
                if (!memory.cancel(waiter)) {
                    memory.release(bytes); // granted meanwhile: the bytes are this request's
                }
                throw e;
            }
        }
        callback.onEnd(() -> memory.release(bytes));
    }

    /**
     * Chunk reads are paused: answers the live transactions after the checkpoint with the cursor
     * echoed. A caught-up consumer's request waits, as a long poll would, until a transaction
     * arrives, the pause ends or its timeout passes, so that a paused snapshot neither spins its
     * consumers nor delays their live stream by more than one look ({@link #PAUSED_LOOK}).
     */
    private void respondPaused(Live live, long checkpoint, long newestBefore, SnapshotCursor cursor)
            throws InterruptedException {
        if (live.length == 0) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(params.timeoutMs());
            while (service.chunks().paused()
                    && buffer.newestScn() == newestBefore
                    && System.nanoTime() < deadline) {
                Thread.sleep(PAUSED_LOOK.toMillis());
            }
            live = readLive(checkpoint, params.maxBytes());
            if (live == null) {
                return; // answered 410
            }
        }
        respond(live, live.length, checkpoint, null, cursor.toText());
    }

    /** Whole transactions after the checkpoint, at most {@code maxBytes} (at least one). */
    private Live readLive(long checkpoint, int maxBytes) {
        EventBufferReader reader = buffer.newReader();
        ByteBuffer bytes = ByteBuffer.allocate(maxBytes).order(ByteOrder.LITTLE_ENDIAN);
        int result = reader.read(checkpoint, bytes);
        if (result == EventBufferReader.DESTINATION_TOO_SMALL) {
            bytes = ByteBuffer.allocate(reader.requiredBytes()).order(ByteOrder.LITTLE_ENDIAN);
            result = reader.read(checkpoint, bytes);
        }
        if (result == EventBufferReader.TOO_OLD) {
            tooOld(reader.oldestScn());
            return null;
        }
        return result > 0
                ? new Live(bytes, reader.bytesCopied(), reader.lastScn())
                : new Live(bytes, 0, checkpoint);
    }

    private void respond(
            Live live, int length, long checkpoint, ChunkFrames chunk, String cursorAfter) {
        // The checkpoint after the live part, read before filtering moves frames.
        long lastScn = length == live.length ? live.lastScn : live.scnBefore(length, checkpoint);
        int kept = body.filterInPlace(live.bytes, length, subscription, false);
        int chunkLength = chunk == null ? 0 : chunk.length();
        ByteBuffer out = ByteBuffer.allocate(kept + chunkLength);
        out.put(live.bytes.duplicate().limit(kept).position(0));
        if (chunk != null) {
            out.put(chunk.frames().duplicate().limit(chunkLength).position(0));
        }
        out.flip();
        response.setStatus(200);
        response.getHeaders().put(StreamResponse.LAST_SCN, Long.toString(lastScn));
        response.getHeaders().put(StreamResponse.OLDEST_SCN, Long.toString(buffer.oldestScn()));
        response.getHeaders().put(StreamResponse.NEWEST_SCN, Long.toString(buffer.newestScn()));
        response.getHeaders().put(StreamResponse.SNAPSHOT, cursorAfter);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, StreamExchange.BINARY_TYPE);
        response.write(true, out, callback);
    }

    private void tooOld(long oldestScn) {
        response.getHeaders().put(StreamResponse.LAST_SCN, Long.toString(params.from()));
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
                                    + "; start the snapshot again (snapshot=start)");
                    json.writeNumberField(StreamResponse.FROM_FIELD, params.from());
                    json.writeNumberField(StreamResponse.OLDEST_SCN_FIELD, oldestScn);
                });
    }

    /** Entries copied out of the buffer: whole transactions in {@code [0, length)}. */
    private static final class Live {
        final ByteBuffer bytes;
        final int length;
        final long lastScn;

        Live(ByteBuffer bytes, int length, long lastScn) {
            this.bytes = bytes;
            this.length = length;
            this.lastScn = lastScn;
        }

        /** The offset of the first entry with an SCN at or above {@code scn}, or the length. */
        int cutAt(long scn) {
            EventFrame frame = new EventFrame();
            for (int at = 0; at < length; at += frame.length()) {
                if (frame.wrap(bytes, at).scn() >= scn) {
                    return at;
                }
            }
            return length;
        }

        /** The SCN of the last entry before {@code offset}, or {@code checkpoint} if none. */
        long scnBefore(int offset, long checkpoint) {
            EventFrame frame = new EventFrame();
            long scn = checkpoint;
            for (int at = 0; at < offset; at += frame.length()) {
                scn = frame.wrap(bytes, at).scn();
            }
            return scn;
        }
    }

    /**
     * The response's callback, running what the request holds (its place among the snapshot
     * requests, its serving memory) once, when the response ends, written or failed.
     */
    private static final class Ending implements Callback {
        private final Callback delegate;
        private final List<Runnable> onEnd = new CopyOnWriteArrayList<>();
        private final AtomicBoolean ended = new AtomicBoolean();

        Ending(Callback delegate) {
            this.delegate = delegate;
        }

        void onEnd(Runnable release) {
            onEnd.add(release);
        }

        @Override
        public void succeeded() {
            end();
            delegate.succeeded();
        }

        @Override
        public void failed(Throwable x) {
            end();
            delegate.failed(x);
        }

        @Override
        public InvocationType getInvocationType() {
            return delegate.getInvocationType();
        }

        private void end() {
            if (ended.compareAndSet(false, true)) {
                onEnd.forEach(Runnable::run);
            }
        }
    }
}
