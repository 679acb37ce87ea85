package io.changegrid.relay.snapshot;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.ExpandableBuffer;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.frame.SnapshotFrames;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.policy.capture.TableRoute;
import java.nio.ByteBuffer;
import java.util.function.BiPredicate;

/**
 * Encodes a chunk's surviving rows as one snapshot transaction (docs/bootstrap.md): each source row
 * takes the relay's route for its table (the policy's predicate, transform and this relay's
 * partition, as live rows do: masking applies to snapshots too), keys the window touched are
 * dropped, rows the consumer's subscription does not want are left out, and every frame is flagged
 * {@link FrameLayout#FLAG_SNAPSHOT}; the snapshot's last chunk also {@link
 * FrameLayout#FLAG_SNAPSHOT_COMPLETE}, on a transaction that may hold no rows.
 *
 * <p>The frames' SCN is the chunk's high watermark: the rows are the table's values just before
 * that point of the timeline.
 *
 * <p>Not thread-safe: one per response.
 */
public final class ChunkFrames {

    /** The transaction id snapshot chunks carry. */
    public static final String TRANSACTION_ID = "snapshot";

    private final FrameEncoder encoder = new FrameEncoder(64 << 10);
    private final EventFrame frame = new EventFrame();
    private int rows;
    private int dropped;

    /**
     * Encodes {@code chunk}.
     *
     * @param route the relay's route of the chunk's table schema version
     * @param touched the keys the window touched (of the route's output schema)
     * @param wanted whether the consumer's subscription wants a frame
     * @param published the registry the route's output schema is in
     * @param complete whether this is the snapshot's last chunk
     */
    public void encode(
            int sourceId,
            ReadChunk chunk,
            TableRoute route,
            TouchedKeys touched,
            BiPredicate<EventFrame, SchemaRegistry> wanted,
            SchemaRegistry published,
            boolean complete) {
        ExpandableBuffer out = encoder.buffer();
        out.clear();
        rows = 0;
        dropped = 0;
        long scn = chunk.high();
        long now = System.currentTimeMillis() * 1_000;
        encoder.beginTransaction(sourceId, scn, now, TRANSACTION_ID);
        if (route != null) {
            for (Object[] source : chunk.rows()) {
                if (!route.passesEverything() && !route.selects(Operation.INSERT, null, source)) {
                    continue;
                }
                Object[] row = route.transform(source, false, sourceId, scn, now);
                if (!route.passesEverything() && !route.inPartition(null, row)) {
                    continue;
                }
                if (touched.touches(route.output(), row)) {
                    dropped++;
                    continue;
                }
                int at = encoder.appendRowChange(Operation.INSERT, route.output(), null, row);
                if (wanted.test(frame.wrap(out.byteBuffer(), at), published)) {
                    rows++;
                } else {
                    out.position(at); // not this consumer's: the frame is taken back
                }
            }
        }
        encoder.endTransaction();
        new SnapshotFrames()
                .mark(
                        out.byteBuffer(),
                        0,
                        out.position(),
                        FrameLayout.FLAG_SNAPSHOT
                                | (complete ? FrameLayout.FLAG_SNAPSHOT_COMPLETE : 0));
    }

    /** Whether the chunk is worth sending: it has rows, or it completes the snapshot. */
    public boolean worthSending(boolean complete) {
        return rows > 0 || complete;
    }

    /** The encoded frames, in {@code [0, length())}. */
    public ByteBuffer frames() {
        return encoder.buffer().byteBuffer();
    }

    public int length() {
        return encoder.buffer().position();
    }

    /** Rows encoded. */
    public int rows() {
        return rows;
    }

    /** Rows dropped because the window touched their key. */
    public int dropped() {
        return dropped;
    }
}
