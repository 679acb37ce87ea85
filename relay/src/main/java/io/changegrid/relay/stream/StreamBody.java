package io.changegrid.relay.stream;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.ByteCursor;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.ExpandableBuffer;
import io.changegrid.events.frame.FrameProjection;
import io.changegrid.events.schema.SchemaRegistry;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Turns the whole transactions a reader copied out of the event buffer into a response body for one
 * subscription: as they are (binary, no subscription filter), the wanted frames only (binary), or
 * JSON lines.
 *
 * <p>A filtered transaction keeps its END_OF_TRANSACTION frame, and with it the source's event
 * count; a transaction with nothing wanted is left out entirely (the response's last-SCN header
 * still moves the consumer's checkpoint past it). Frame bytes are never changed, but for the frames
 * of a table the principal sees only some columns of: those are rewritten with the granted columns
 * only ({@link FrameProjection}), so a forbidden value never reaches the response. The projection
 * decodes the frame and writes the shorter one back in place through a scratch buffer: the only
 * copy the projected frames cost; frames sent whole are moved as before.
 */
final class StreamBody {

    private final SchemaRegistry registry;
    private final EventFrame frame = new EventFrame();
    private final ChangeEventDecoder decoder;
    private ExpandableBuffer projected; // scratch of projections, made on first use
    private ByteCursor cursor;
    private CRC32C crc;

    StreamBody(SchemaRegistry registry) {
        this.registry = registry;
        this.decoder = new ChangeEventDecoder(registry);
    }

    /**
     * Filters {@code entries[0, length)} in place for a binary response: wanted frames are moved to
     * the front. Returns the new length.
     *
     * <p>A transaction without a wanted event is left out whole, unless it is published in parts
     * (docs/event-format.md): its part ends and its END_OF_TRANSACTION are kept, wanted or not,
     * because the consumer counts the parts it holds ({@code X-Changegrid-Parts}) and must see the
     * transaction end in the answer that ends it.
     *
     * @param continuing whether the entries begin inside a transaction in parts (the request held
     *     some of its parts)
     */
    int filterInPlace(
            ByteBuffer entries, int length, Subscription subscription, boolean continuing) {
        if (subscription.isEverything()) {
            return length;
        }
        boolean inParts = continuing;
        int write = 0;
        int transactionStart = 0;
        int transactionWritten = 0;
        boolean wantedAny = false;
        for (int offset = 0; offset < length; ) {
            frame.wrap(entries, offset);
            int frameLength = frame.length();
            int op = frame.operationCode();
            if (op == Operation.HEARTBEAT.code()) {
                write = move(entries, offset, write, frameLength);
                transactionStart = write;
                transactionWritten = write;
                wantedAny = false;
            } else if (op == Operation.END_OF_TRANSACTION.code()) {
                boolean partEnd = frame.continues();
                if (wantedAny || partEnd || inParts) {
                    write = move(entries, offset, transactionWritten, frameLength);
                } else {
                    write = transactionStart; // nothing wanted: drop the whole transaction
                }
                inParts = partEnd;
                transactionStart = write;
                transactionWritten = write;
                wantedAny = false;
            } else if (subscription.wants(frame, registry)) {
                FrameProjection projection =
                        op == Operation.SCHEMA_CHANGE.code()
                                ? null
                                : subscription.projection(frame, registry);
                transactionWritten =
                        projection == null
                                ? move(entries, offset, transactionWritten, frameLength)
                                : project(entries, projection, transactionWritten, frameLength);
                write = transactionWritten;
                wantedAny = true;
            }
            offset += frameLength;
        }
        return write;
    }

    /**
     * Writes {@code entries[0, kept)}, frames already filtered ({@link #filterInPlace}), as JSON
     * lines, in chunks; {@code done} completes once the last one is written. Projected frames are
     * decoded with the schemas the principal sees, gathered into a registry of this response's own.
     */
    void writeJson(
            Response response,
            ByteBuffer entries,
            int kept,
            Subscription subscription,
            Callback done) {
        ChangeEventDecoder json = decoder;
        if (projected != null) {
            SchemaRegistry visible = new SchemaRegistry();
            for (int offset = 0; offset < kept; offset += frame.length()) {
                frame.wrap(entries, offset);
                if (frame.tableId() != 0) {
                    visible.restore(
                            subscription.visibleSchema(
                                    frame.tableId(), frame.schemaVersion(), registry));
                }
            }
            json = new ChangeEventDecoder(visible);
        }
        new JsonLinesWriter(response, entries, kept, json, done).iterate();
    }

    /**
     * Writes the projection of the frame {@link #frame} holds at {@code to}, over bytes already
     * read; returns the position after it.
     */
    private int project(ByteBuffer entries, FrameProjection projection, int to, int frameLength) {
        if (projected == null) {
            projected = new ExpandableBuffer(frameLength);
            cursor = new ByteCursor();
            crc = new CRC32C();
        }
        projected.clear();
        int length = projection.project(frame, projected, cursor, crc);
        if (length > frameLength) {
            throw new IllegalStateException(
                    "projected frame longer than its source: length="
                            + length
                            + ", source="
                            + frameLength);
        }
        entries.put(to, projected.byteBuffer(), 0, length);
        return to + length;
    }

    private static int move(ByteBuffer entries, int from, int to, int length) {
        if (from != to) {
            entries.put(to, entries, from, length);
        }
        return to + length;
    }
}
