package io.changegrid.fetchers.mysql;

import io.changegrid.events.frame.FrameLayout;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.policy.capture.TransactionWriter;
import java.util.function.Supplier;

/**
 * Cuts a transaction that outgrows a part into parts as it is read, and hands each to the sink at
 * once, so that the fetcher holds at most one part of a large transaction (a bulk delete, a
 * backfill) however large it grows. The cut depends only on the frames and {@link
 * FrameLayout#partBytes}, so every relay of a source cuts at the same events (docs/event-format.md,
 * "Transactions in parts").
 *
 * <p>A sink that does not {@linkplain TransactionSink#takesParts() take parts} gets whole
 * transactions only, and a larger one than the relay's largest entry stops the fetcher.
 *
 * <p>Not thread-safe: the binlog client's thread owns one, next to the {@link
 * TransactionAssembler}.
 */
final class PartCutter {

    private final TransactionWriter writer;
    private final TransactionSink sink;
    private final int maxEntryBytes;
    private final int partBytes;

    PartCutter(TransactionWriter writer, TransactionSink sink, int maxEntryBytes) {
        this.writer = writer;
        this.sink = sink;
        this.maxEntryBytes = maxEntryBytes;
        this.partBytes = FrameLayout.partBytes(maxEntryBytes);
    }

    /**
     * After an event was appended: hands the part over if it reached its size.
     *
     * @param where the transaction's SCN, binlog position and GTID, for the error: built only for
     *     one, since this runs for every row change
     * @throws TransactionTooLargeException if one event alone is larger than the relay's largest
     *     entry, which no cut can help
     */
    void afterEvent(Supplier<String> where) throws InterruptedException {
        if (!sink.takesParts()) {
            if (writer.length() > maxEntryBytes) {
                throw new TransactionTooLargeException(
                        "transaction larger than the relay can publish whole: "
                                + where.get()
                                + ", bytesSoFar="
                                + writer.length()
                                + ", events="
                                + writer.events()
                                + ", maxTransactionBytes="
                                + maxEntryBytes
                                + "; raise the relay's buffer segment size, or publish large"
                                + " transactions in parts (buffer.transactionParts)");
            }
            return;
        }
        if (!writer.partFull(partBytes)) {
            return;
        }
        writer.endPart();
        if (writer.length() > maxEntryBytes) {
            throw new TransactionTooLargeException(
                    "an event larger than the relay can publish: "
                            + where.get()
                            + ", partBytes="
                            + writer.length()
                            + ", events="
                            + writer.events()
                            + ", maxTransactionBytes="
                            + maxEntryBytes
                            + "; raise the relay's buffer segment size");
        }
        sink.acceptPart(writer.scn(), writer.frames(), writer.length());
        writer.nextPart();
    }

    /** Forgets the parts handed over for the transaction a broken connection left half read. */
    void abandon() {
        if (writer.parts() > 0) {
            sink.abandonParts();
        }
    }
}
