package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits one binlog connection's work over two threads: the binlog client's thread reads the
 * socket, the library frames and deserializes events (table maps, the rows events' heads, their row
 * images copied once into a {@link RowBuffers} ring), and hands each event in order through a
 * bounded {@link Handoff} to an encoder thread, which assembles transactions, reads the rows in
 * place, encodes and checksums frames and hands whole transactions to the sink ({@link
 * TransactionAssembler}). Nothing is allocated per event beyond what the library already does.
 *
 * <p>One pipeline serves one connection: {@link #start} before {@code connect()}, {@link #finish}
 * after it returned. Finishing waits until the encoder thread handled every event read before, so
 * the assembler's position and failure are final when the fetcher's control loop reads them; the
 * failure of either thread is kept in one place ({@link #failure()} here, the assembler's own
 * otherwise) and ends the connection once, always from the client's thread ({@link
 * #requestDisconnect}).
 *
 * <p>The ring of row buffers is {@link #ROW_BUFFERS} long: at most {@link #CAPACITY} events wait in
 * the handoff, one is being handled and one being read, so a buffer comes round again only after
 * its event was handled.
 */
final class FetchPipeline implements BinaryLogClient.EventListener {

    private static final Logger LOG = LoggerFactory.getLogger(FetchPipeline.class);

    /**
     * Events between the threads; a transaction of 100 rows is about 30 rows events. On 2 cores
     * shared with the source the encoder sets the pace, and the client thread parks on a full ring
     * until half of it is free: a longer ring means fewer of those parks, each of which costs the
     * encoder its core for a while when it wakes the client. Stage 1 at 4.8M (docs/benchmarks.md):
     * 1,024 read 8-13 % more events a second than 256, pass-through and with policies; 32 read
     * less.
     */
    static final int CAPACITY = 1024;

    /** Row buffers the client's thread needs so that none is reused while still in the handoff. */
    static final int ROW_BUFFERS = CAPACITY + 2;

    /** Marks the end of the connection's events. */
    private static final Event END = new Event(null, null);

    private final Handoff<Event> handoff = new Handoff<>(CAPACITY);
    private final BinaryLogClient.EventListener downstream;
    private final Runnable disconnect;
    private final Thread encoder;
    private volatile Throwable failure;
    private volatile boolean disconnectRequested;

    /** Set on the client's thread once it disconnected for a request. */
    private boolean disconnecting;

    private FetchPipeline(
            BinaryLogClient.EventListener downstream, Runnable disconnect, String threadName) {
        this.downstream = downstream;
        this.disconnect = disconnect;
        this.encoder = new Thread(this::encode, threadName);
        encoder.setDaemon(true);
    }

    /**
     * Starts the encoder thread, named after the calling thread.
     *
     * @param downstream handles every event on the encoder thread, in order, and keeps its own
     *     failures (as {@link TransactionAssembler} does), asking for the connection to end through
     *     {@link #requestDisconnect}
     * @param disconnect ends the connection; called once, on the binlog client's thread only
     */
    static FetchPipeline start(BinaryLogClient.EventListener downstream, Runnable disconnect) {
        FetchPipeline pipeline =
                new FetchPipeline(
                        downstream, disconnect, Thread.currentThread().getName() + "-encoder");
        pipeline.encoder.start();
        return pipeline;
    }

    /**
     * Asks the binlog client's thread to end the connection at its next event; any thread. The
     * encoder thread must not disconnect itself: the client's {@code disconnect()} waits for {@code
     * connect()} to return, which the client's thread may be kept from, waiting for room in the
     * handoff. The server sends a heartbeat at least every heartbeat interval, so a next event
     * comes.
     */
    void requestDisconnect() {
        disconnectRequested = true;
    }

    /** On the binlog client's thread: hands the event on, waiting while the handoff is full. */
    @Override
    public void onEvent(Event event) {
        if (disconnectRequested || failure != null) {
            // Nothing more is handed on, so no transaction is published with a hole: the open one
            // is abandoned when the connection ends.
            if (!disconnecting) {
                disconnecting = true;
                disconnect.run();
            }
            return;
        }
        try {
            // Row events wait in batches: nothing is published before the commit anyway.
            handoff.put(event, !isRowsOrTableMap(event));
        } catch (InterruptedException e) {
            fail(e);
            disconnecting = true;
            disconnect.run();
            Thread.currentThread().interrupt(); // after disconnecting, which may wait on a lock
        }
    }

    /**
     * After the connection ended: waits until the encoder thread handled every event handed on and
     * stopped. If interrupted meanwhile, interrupts the encoder thread (a sink may be blocking) and
     * still waits for it, then sets this thread's interrupt flag again.
     */
    void finish() {
        boolean interrupted = false;
        while (true) {
            try {
                handoff.put(END);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                encoder.interrupt();
            }
        }
        while (true) {
            try {
                encoder.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                encoder.interrupt();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean isRowsOrTableMap(Event event) {
        return switch (event.getHeader().getEventType()) {
            case TABLE_MAP,
                    WRITE_ROWS,
                    EXT_WRITE_ROWS,
                    UPDATE_ROWS,
                    EXT_UPDATE_ROWS,
                    DELETE_ROWS,
                    EXT_DELETE_ROWS ->
                    true;
            default -> false;
        };
    }

    /**
     * What stopped the handing over itself (an interrupt, or a failure the downstream let through),
     * or null; any thread.
     */
    Throwable failure() {
        return failure;
    }

    /** The encoder thread: handles events until the end mark; never stops before it. */
    private void encode() {
        while (true) {
            Event event;
            try {
                event = handoff.take();
            } catch (InterruptedException e) {
                fail(e);
                continue;
            }
            if (event == END) {
                return;
            }
            if (failure == null) {
                try {
                    downstream.onEvent(event);
                } catch (RuntimeException | Error e) {
                    // The downstream keeps its own failures; this is one it let through.
                    fail(e);
                }
            }
        }
    }

    private synchronized void fail(Throwable e) {
        if (failure != null) {
            return;
        }
        failure = e;
        LOG.warn(
                "binlog fetch pipeline stopped, disconnecting: thread={}",
                Thread.currentThread().getName(),
                e);
        requestDisconnect();
    }
}
