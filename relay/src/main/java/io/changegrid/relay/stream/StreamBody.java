package io.changegrid.relay.stream;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.SchemaRegistry;
import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Turns the whole transactions a reader copied out of the event buffer into a response body for one
 * subscription: as they are (binary, no subscription filter), the wanted frames only (binary), or
 * JSON lines.
 *
 * <p>A filtered transaction keeps its END_OF_TRANSACTION frame, and with it the source's event
 * count; a transaction with nothing wanted is left out entirely (the response's last-SCN header
 * still moves the consumer's checkpoint past it). Frame bytes are never changed.
 */
final class StreamBody {

    private final SchemaRegistry registry;
    private final EventFrame frame = new EventFrame();
    private final ChangeEventDecoder decoder;

    StreamBody(SchemaRegistry registry) {
        this.registry = registry;
        this.decoder = new ChangeEventDecoder(registry);
    }

    /**
     * Filters {@code entries[0, length)} in place for a binary response: wanted frames are moved to
     * the front. Returns the new length.
     */
    int filterInPlace(ByteBuffer entries, int length, Subscription subscription) {
        if (subscription.isEverything()) {
            return length;
        }
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
                if (wantedAny) {
                    write = move(entries, offset, transactionWritten, frameLength);
                } else {
                    write = transactionStart; // nothing wanted: drop the whole transaction
                }
                transactionStart = write;
                transactionWritten = write;
                wantedAny = false;
            } else if (subscription.wants(frame, registry)) {
                transactionWritten = move(entries, offset, transactionWritten, frameLength);
                write = transactionWritten;
                wantedAny = true;
            }
            offset += frameLength;
        }
        return write;
    }

    /**
     * Writes the wanted frames of {@code entries[0, length)} as JSON lines, in chunks; {@code done}
     * completes once the last one is written.
     */
    void writeJson(
            Response response,
            ByteBuffer entries,
            int length,
            Subscription subscription,
            Callback done) {
        int kept = filterInPlace(entries, length, subscription);
        new JsonLinesWriter(response, entries, kept, decoder, done).iterate();
    }

    private static int move(ByteBuffer entries, int from, int to, int length) {
        if (from != to) {
            entries.put(to, entries, from, length);
        }
        return to + length;
    }
}
