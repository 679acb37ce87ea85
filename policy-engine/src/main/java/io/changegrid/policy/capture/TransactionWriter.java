package io.changegrid.policy.capture;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.RowImages;
import io.changegrid.events.schema.TableSchema;
import java.nio.ByteBuffer;

/**
 * Encodes one source transaction at a time as the relay publishes it: each row change takes its
 * table's {@link TableRoute} (the policy's predicate on the source images, its transform, then this
 * relay's partition on the transformed images), and only what passes is encoded, with the route's
 * output schema. Nothing is encoded until the first event passes, so a transaction whose rows all
 * fall to policies is {@linkplain #hasEvents() empty} and the fetcher publishes nothing for it.
 *
 * <p>The fetcher says where a transaction {@linkplain #open opens}; after {@link #end()} the frames
 * ({@link #frames()}, {@link #length()}) with their {@link #events()} and {@link
 * #commitTimeMicros()} go to the sink as they are.
 *
 * <p>Not thread-safe: the fetcher's thread owns one.
 */
public final class TransactionWriter {

    private final int sourceId;
    private final FrameEncoder encoder;
    private long scn;
    private long commitTimeMicros;
    private String transactionId;
    private boolean began;
    private int events;
    private int parts;
    private final TransformedRow transformed = new TransformedRow();
    private Object[] predicateBefore = new Object[16];
    private Object[] predicateAfter = new Object[16];

    /** A writer for the frames of source {@code sourceId}. */
    public TransactionWriter(int sourceId, int initialCapacity) {
        this.sourceId = sourceId;
        this.encoder = new FrameEncoder(initialCapacity);
    }

    /**
     * Starts a transaction; its frames begin with the first event that passes.
     *
     * @param transactionId the source's id of the transaction (e.g. a GTID), not empty
     */
    public void open(long transactionScn, long commitTime, String transactionId) {
        this.scn = transactionScn;
        this.commitTimeMicros = commitTime;
        this.transactionId = transactionId;
        this.began = false;
        this.events = 0;
        this.parts = 0;
    }

    /**
     * Routes one row change into the open transaction.
     *
     * @param before the source's before image, or {@code null}
     * @param after the source's after image, or {@code null}
     * @return whether it was published (false: the policy's predicate or partition left it out)
     */
    public boolean appendRow(TableRoute route, Operation op, Object[] before, Object[] after) {
        if (!route.passesEverything()) {
            if (!route.selects(op, before, after)) {
                return false;
            }
            before = route.transform(before, true, sourceId, scn, commitTimeMicros);
            after = route.transform(after, false, sourceId, scn, commitTimeMicros);
            if (!route.inPartition(before, after)) {
                return false;
            }
        }
        ensureBegun();
        encoder.appendRowChange(op, route.output(), before, after);
        events++;
        return true;
    }

    /**
     * Appends one row change whose images the fetcher writes in place, for a route that {@linkplain
     * TableRoute#passesEverything() passes everything} unchanged: what the object form would
     * publish, without building it. Routes with a predicate, a transform or a partition need the
     * values and take {@link #appendRow(TableRoute, Operation, Object[], Object[])}.
     *
     * @throws IllegalStateException if the route does not pass everything
     */
    public void appendRow(TableRoute route, Operation op, RowImages images) {
        if (!route.passesEverything()) {
            throw new IllegalStateException(
                    "rows written in place need a route that passes everything: table="
                            + route.output().qualifiedName());
        }
        ensureBegun();
        encoder.appendRowChange(op, route.output(), images);
        events++;
    }

    /**
     * Routes one row change read in place into the open transaction, for a route that {@linkplain
     * TableRoute#readsInPlace() reads in place}: the predicate gets the values of the columns it
     * reads, the transform computes its masked and added columns, and every other column is written
     * straight from the source row. The frame is the one {@link #appendRow(TableRoute, Operation,
     * Object[], Object[])} writes from the images as values.
     *
     * @return whether it was published (false: the policy's predicate left it out)
     * @throws IllegalStateException if the route does not read in place
     */
    public boolean appendRow(TableRoute route, Operation op, SourceRow row) {
        if (route.passesEverything()) {
            appendRow(route, op, (RowImages) row);
            return true;
        }
        if (!route.readsInPlace()) {
            throw new IllegalStateException(
                    "rows read in place need a route without a row partitioner: table="
                            + route.output().qualifiedName());
        }
        int columns = route.source().columnCount();
        if (predicateBefore.length < columns) {
            predicateBefore = new Object[columns];
            predicateAfter = new Object[columns];
        }
        if (!route.selects(op, row, predicateBefore, predicateAfter)) {
            return false;
        }
        RowImages images = row;
        if (route.transformer() != null) {
            images =
                    transformed.wrap(
                            route.transformer(),
                            row,
                            op != Operation.INSERT,
                            op != Operation.DELETE,
                            sourceId,
                            scn,
                            commitTimeMicros);
        }
        ensureBegun();
        encoder.appendRowChange(op, route.output(), images);
        events++;
        return true;
    }

    /**
     * Publishes a schema change of a routed table in the open transaction, with its output schema.
     */
    public void appendSchemaChange(TableRoute route, String ddl) {
        ensureBegun();
        TableSchema output = route.output();
        encoder.appendSchemaChange(output, ddl);
        events++;
    }

    /** Whether the open transaction has published anything yet. */
    public boolean hasEvents() {
        return began;
    }

    /** Closes the open transaction's frames with END_OF_TRANSACTION; it must have events. */
    public void end() {
        if (!began) {
            throw new IllegalStateException("no events to end: scn=" + scn);
        }
        encoder.endTransaction();
        began = false;
    }

    /**
     * Whether the open transaction's frames since its last part reached {@code partBytes}: time to
     * cut a part ({@link #endPart()}).
     */
    public boolean partFull(int partBytes) {
        return began && length() >= partBytes;
    }

    /**
     * Ends a part of the open transaction ({@link
     * io.changegrid.events.frame.FrameLayout#FLAG_CONTINUED}): {@link #frames()} and {@link
     * #length()} then hold the part, for the sink's {@code acceptPart}; {@link #nextPart()} makes
     * room for the next one.
     */
    public void endPart() {
        if (!began) {
            throw new IllegalStateException("no events to end a part with: scn=" + scn);
        }
        encoder.endPart();
        parts++;
    }

    /** Starts the open transaction's next part in an empty buffer, once the last was handed on. */
    public void nextPart() {
        encoder.buffer().clear();
    }

    /** The parts of the open transaction handed on so far. */
    public int parts() {
        return parts;
    }

    /** Replaces whatever was encoded with one heartbeat frame at {@code heartbeatScn}. */
    public void heartbeat(long heartbeatScn, long sourceTimeMicros) {
        abandon();
        scn = heartbeatScn;
        commitTimeMicros = sourceTimeMicros;
        encoder.appendHeartbeat(sourceId, heartbeatScn, sourceTimeMicros);
    }

    /** Drops the open transaction, e.g. one a broken connection left half read. */
    public void abandon() {
        if (began) {
            // The encoder's transaction is still open: closing it lets the next one begin.
            encoder.abortTransaction(0);
        } else {
            encoder.buffer().clear();
        }
        began = false;
        events = 0;
        parts = 0;
    }

    /** The encoded frames, in {@code [0, length())}. */
    public ByteBuffer frames() {
        return encoder.buffer().byteBuffer();
    }

    /** The bytes encoded so far. */
    public int length() {
        return encoder.buffer().position();
    }

    /** The row and schema-change events encoded in the transaction; 0 for a heartbeat. */
    public int events() {
        return events;
    }

    /** The open transaction's (or heartbeat's) SCN. */
    public long scn() {
        return scn;
    }

    /** The open transaction's commit time, or the heartbeat's time. */
    public long commitTimeMicros() {
        return commitTimeMicros;
    }

    private void ensureBegun() {
        if (!began) {
            encoder.buffer().clear();
            encoder.beginTransaction(sourceId, scn, commitTimeMicros, transactionId);
            began = true;
            events = 0;
        }
    }
}
