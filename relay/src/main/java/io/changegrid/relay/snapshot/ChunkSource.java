package io.changegrid.relay.snapshot;

import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.Fetcher;
import io.changegrid.fetchers.SnapshotReader;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Reads chunks from the source for every consumer of one relay: low watermark, one key-range read,
 * high watermark, then waits until the relay's fetcher has read past the high watermark, so that
 * every transaction below it is in the event buffer when the chunk is placed (docs/bootstrap.md).
 *
 * <p>One {@link SnapshotReader} (one connection), opened at the first chunk; reads are serialised,
 * which with {@link SnapshotSettings#minChunkInterval()} bounds what snapshots cost the source
 * however many consumers ask.
 *
 * <p>Threading: thread-safe; {@link #read} blocks the calling (HTTP pool) thread, never the
 * fetcher's.
 */
public final class ChunkSource implements AutoCloseable {

    private final Supplier<SnapshotReader> opener;
    private final Fetcher fetcher;
    private final SnapshotSettings settings;
    private volatile ChunkHook hook = ChunkHook.NONE;
    private volatile boolean paused;
    private SnapshotReader reader;
    private long lastReadNanos;

    /**
     * @param opener opens the source's reader ({@code FetcherProvider.openSnapshotReader}); throws
     *     {@link UnsupportedOperationException} for sources without snapshots
     * @param fetcher the relay's fetcher: its position says how far the buffer holds the timeline
     */
    public ChunkSource(
            Supplier<SnapshotReader> opener, Fetcher fetcher, SnapshotSettings settings) {
        this.opener = opener;
        this.fetcher = fetcher;
        this.settings = settings;
    }

    /** The settings chunks are read with. */
    public SnapshotSettings settings() {
        return settings;
    }

    /**
     * Stops chunk reads on this relay until {@link #resume()}: an operator's lever when the source
     * must not take snapshot reads for a while. Snapshotting consumers keep their cursor and get
     * live transactions meanwhile; the pause lasts until resumed or the relay restarts.
     */
    public void pause() {
        paused = true;
    }

    /** Lets chunk reads go on after {@link #pause()}. */
    public void resume() {
        paused = false;
    }

    /** Whether chunk reads are paused. */
    public boolean paused() {
        return paused;
    }

    /** Installs a hook run between each chunk's read and its high watermark (tests). */
    public void hook(ChunkHook hook) {
        this.hook = hook == null ? ChunkHook.NONE : hook;
    }

    /**
     * Reads the chunk of {@code table} after {@code afterKey} and waits for the fetcher to pass its
     * high watermark.
     *
     * @return the chunk, or empty when the fetcher did not pass the high watermark within {@link
     *     SnapshotSettings#watermarkWait()} (the chunk cannot be placed; read it again later)
     * @throws SQLException if the source cannot be read
     */
    public Optional<ReadChunk> read(TableSchema table, Object[] afterKey)
            throws SQLException, InterruptedException {
        ReadChunk chunk;
        synchronized (this) {
            throttle();
            if (reader == null) {
                reader = opener.get();
            }
            long low = reader.watermark();
            var rows = reader.readChunk(table, afterKey, settings.chunkSize());
            try {
                hook.betweenWatermarks(table, rows);
            } catch (Exception e) {
                throw new IllegalStateException("snapshot chunk hook failed", e);
            }
            long high = reader.watermark();
            lastReadNanos = System.nanoTime();
            chunk = new ReadChunk(table, low, high, rows, rows.size() < settings.chunkSize());
        }
        return awaitFetcher(chunk.high()) ? Optional.of(chunk) : Optional.empty();
    }

    /** Waits until no transaction still to come from the fetcher lies below {@code scn}. */
    private boolean awaitFetcher(long scn) throws InterruptedException {
        long deadline = System.nanoTime() + settings.watermarkWait().toNanos();
        // The fetcher publishes at its own pace and has no per-position signal: a short park
        // between looks costs a consumer that snapshots at most that long per chunk.
        while (fetcher.position().scn() < scn) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            if (Thread.interrupted()) {
                throw new InterruptedException("waiting for the fetcher to pass scn=" + scn);
            }
        }
        return true;
    }

    private void throttle() throws InterruptedException {
        long wait = lastReadNanos + settings.minChunkInterval().toNanos() - System.nanoTime();
        if (lastReadNanos != 0 && wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    @Override
    public synchronized void close() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
