package io.changegrid.relay.generated;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import io.changegrid.fetchers.FetchPosition;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.FetcherContext;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.capture.TransactionWriter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A source of one table, {@code demo.items (id BIGINT, name VARCHAR)}, whose transaction {@code n}
 * (from 1) inserts the row {@code (n, "item n")} at SCN {@code 10 n}. It routes every row through
 * the relay's {@link CaptureRouter} and encodes with a {@link TransactionWriter}, as a real fetcher
 * does, and serialises its resume position as {@code generated:<next n>}. With {@code
 * source.errorAfter} it throws an {@link OutOfMemoryError} after that many transactions.
 *
 * <p>Threading: {@link #run} on the relay's fetcher thread; the getters from any thread.
 */
final class GeneratedFetcher implements Fetcher {

    private static final String PREFIX = "generated:";

    private final int transactions;
    private final int errorAfter;
    private final long pauseMillis;
    private final TransactionSink sink;
    private final SchemaRegistry source = new SchemaRegistry();
    private final CaptureRouter router;
    private final TransactionWriter writer;
    private final TableSchema items;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile long next;

    GeneratedFetcher(
            FetcherContext context,
            int transactions,
            int errorAfter,
            long pauseMillis,
            TransactionSink sink) {
        this.transactions = transactions;
        this.errorAfter = errorAfter;
        this.pauseMillis = pauseMillis;
        this.sink = sink;
        this.items =
                source.register(
                        "demo",
                        "items",
                        List.of(
                                Column.of("id", ValueType.INT64),
                                Column.of("name", ValueType.STRING)),
                        List.of("id"));
        this.router = new CaptureRouter(context.capture(), context.plan(), source);
        this.writer = new TransactionWriter(context.sourceId(), 4096);
        String resume = context.resumePosition();
        if (resume == null) {
            next = 1;
        } else if (resume.startsWith(PREFIX)) {
            next = Long.parseLong(resume.substring(PREFIX.length()));
        } else {
            throw new IllegalArgumentException("not a generated position: position=" + resume);
        }
    }

    @Override
    public void run() throws InterruptedException {
        while (stopped.getCount() > 0) {
            if (errorAfter > 0 && next > errorAfter) {
                // What a fetcher thread out of heap sees; the relay must not outlive it.
                throw new OutOfMemoryError(
                        "Java heap space (source.errorAfter=" + errorAfter + ")");
            }
            if (next <= transactions) {
                if (pauseMillis > 0 && stopped.await(pauseMillis, TimeUnit.MILLISECONDS)) {
                    return;
                }
                publish(next);
                next++;
            } else {
                writer.heartbeat(10 * next - 1, System.currentTimeMillis() * 1_000L);
                sink.accept(
                        writer.scn(),
                        writer.frames(),
                        writer.length(),
                        0,
                        writer.commitTimeMicros(),
                        position().resumePosition());
                stopped.await(20, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void publish(long n) throws InterruptedException {
        writer.open(10 * n, System.currentTimeMillis() * 1_000L, "generated-" + n);
        TableRoute route =
                router.captures(items.database(), items.table()) ? router.route(items) : null;
        if (route != null) {
            writer.appendRow(route, Operation.INSERT, null, new Object[] {n, "item " + n});
        }
        if (!writer.hasEvents()) {
            return; // the policies left nothing of it
        }
        writer.end();
        sink.accept(
                writer.scn(),
                writer.frames(),
                writer.length(),
                writer.events(),
                writer.commitTimeMicros(),
                PREFIX + (n + 1));
    }

    @Override
    public void stop() {
        stopped.countDown();
    }

    /** The source's end is its last transaction: after it there are only heartbeats. */
    @Override
    public boolean reachedEnd() {
        return next > transactions;
    }

    @Override
    public FetchPosition position() {
        long at = next;
        return new FetchPosition(10 * at, PREFIX + at);
    }

    @Override
    public long lagScn() {
        return Math.max(0, 10 * (transactions + 1 - next));
    }

    @Override
    public SchemaRegistry sourceSchemas() {
        return source;
    }

    @Override
    public SchemaRegistry publishedSchemas() {
        return router.published();
    }
}
