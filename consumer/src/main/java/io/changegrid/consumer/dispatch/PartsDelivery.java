package io.changegrid.consumer.dispatch;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Delivers a transaction in parts (docs/consumer.md, "Transactions in parts") as one transaction:
 * from its first part, which the cursor is on, to its last, waiting for each part's entry as the
 * puller fetches it. The buffer then needs room for a part, not the transaction: the entries of the
 * parts delivered are released as soon as the cursor leaves them, before the transaction ends. So
 * once anything was released the transaction can no longer be read again from the buffer: a
 * rollback must have the puller fetch it again ({@link #released()}).
 *
 * <p>The transaction is the only one of its batch, so no checkpoint falls inside it and a rollback
 * undoes nothing else. An entry that, inside the transaction, says its request held no part comes
 * from a relay asked afresh (a failover, or the same relay after an error): it starts the
 * transaction over, and the delivery so far is rolled back.
 *
 * <p>Not thread-safe: the dispatcher thread's.
 */
final class PartsDelivery {

    /** {@link #deliver}: the last part was delivered, {@code onEndTransaction} returned SUCCESS. */
    static final int DELIVERED = 0;

    /** {@link #deliver}: the callback did not return SUCCESS: see {@link #abandoned()}. */
    static final int ABANDONED = 1;

    /**
     * {@link #deliver}: the transaction starts over in a later entry; the cursor is back before
     * that entry's first item.
     */
    static final int RESTARTED = 2;

    /** {@link #deliver}: the puller finished before the last part. */
    static final int FINISHED = 3;

    /** {@link #deliver}: the dispatcher is stopping. */
    static final int STOPPED = 4;

    /** {@link #deliver}: the gate closed. */
    static final int GATE_CLOSED = 5;

    private static final long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final TransactionDelivery delivery;
    private final DeliveryGate gate;
    private final BooleanSupplier stopping;
    private boolean released;
    private boolean crossed; // an entry ended since the last part
    private TransactionDelivery.Abandoned abandoned;
    private long bytes;

    PartsDelivery(TransactionDelivery delivery, DeliveryGate gate, BooleanSupplier stopping) {
        this.delivery = delivery;
        this.gate = gate;
        this.stopping = stopping;
    }

    /**
     * Delivers the transaction whose first part the cursor is on.
     *
     * @return {@link #DELIVERED}, {@link #ABANDONED}, {@link #RESTARTED}, {@link #FINISHED}, {@link
     *     #STOPPED} or {@link #GATE_CLOSED}
     */
    int deliver(BufferCursor cursor) throws InterruptedException {
        released = false;
        abandoned = null;
        bytes = 0;
        long scn = cursor.scn();
        int held = 0;
        boolean first = true;
        while (true) {
            abandoned = delivery.deliverPart(cursor, first);
            if (abandoned != null) {
                return ABANDONED;
            }
            bytes += delivery.bytes();
            first = false;
            held++;
            if (!cursor.continues()) {
                return DELIVERED;
            }
            crossed = false;
            int item = nextPart(cursor);
            if (item != BufferCursor.TRANSACTION) {
                return item;
            }
            if (crossed && cursor.entryParts() == 0) {
                // Asked afresh (parts absent): the relay sends the transaction from its start.
                cursor.stepBack();
                return RESTARTED;
            }
            if (cursor.scn() != scn || (crossed && cursor.entryParts() != held)) {
                throw new IllegalStateException(
                        "entry does not continue the transaction in parts: scn="
                                + scn
                                + ", partsHeld="
                                + held
                                + ", entryScn="
                                + cursor.scn()
                                + ", entryParts="
                                + cursor.entryParts());
            }
        }
    }

    /**
     * Waits for the next part, releasing the entries left behind.
     *
     * @return {@link BufferCursor#TRANSACTION} with the cursor on the next item, or why not
     */
    private int nextPart(BufferCursor cursor) throws InterruptedException {
        while (true) {
            if (stopping.getAsBoolean()) {
                return STOPPED;
            }
            if (!gate.isOpen()) {
                return GATE_CLOSED;
            }
            int item = cursor.next(WAIT_NANOS);
            switch (item) {
                case BufferCursor.ENTRY_END -> {
                    // The entry ended inside the transaction: its parts were delivered.
                    cursor.releaseRead();
                    released = true;
                    crossed = true;
                }
                case BufferCursor.NOTHING_YET -> {}
                case BufferCursor.FINISHED -> {
                    return FINISHED;
                }
                case BufferCursor.HEARTBEAT -> {
                    // The puller checked that no heartbeat falls inside a transaction: this one
                    // comes from a relay asked afresh, before the transaction starts over.
                    cursor.stepBack();
                    return RESTARTED;
                }
                default -> {
                    return item;
                }
            }
        }
    }

    /** Whether entries of the transaction were released, so that it cannot be read again. */
    boolean released() {
        return released;
    }

    /** The transaction's rollback was taken care of: nothing of it is left to fetch again. */
    void forget() {
        released = false;
    }

    /** Why the callback stopped, after {@link #ABANDONED}. */
    TransactionDelivery.Abandoned abandoned() {
        return abandoned;
    }

    /** The frame bytes of the events delivered in the last {@link #deliver}. */
    long bytes() {
        return bytes;
    }

    /** The events delivered in the last {@link #deliver}. */
    int events() {
        return delivery.partsDelivered();
    }
}
