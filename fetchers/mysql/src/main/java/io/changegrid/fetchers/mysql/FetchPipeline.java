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
 * otherwise) and ends the connection once, through {@code onFailure}.
 *
 * <p>The ring of row buffers is {@link #ROW_BUFFERS} long: at most {@link #CAPACITY} events wait in
 * the handoff, one is being handled and one being read, so a buffer comes round again only after
 * its event was handled.
 */
final class FetchPipeline implements BinaryLogClient.EventListener {

    private static final Logger LOG = LoggerFactory.getLogger(FetchPipeline.class);

    /** Events between the threads; a transaction of 100 rows is about 30 rows events. */
    static final int CAPACITY = 256;

    /** Row buffers the client's thread needs so that none is reused while still in the handoff. */
    static final int ROW_BUFFERS = CAPACITY + 2;

    /** Marks the end of the connection's events. */
    private static final Event END = new Event(null, null);

    private final Handoff<Event> handoff = new Handoff<>(CAPACITY);
    private final BinaryLogClient.EventListener downstream;
    private final Runnable onFailure;
    private final Thread encoder;
    private volatile Throwable failure;

    private FetchPipeline(
            BinaryLogClient.EventListener downstream, Runnable onFailure, String threadName) {
        this.downstream = downstream;
        this.onFailure = onFailure;
        this.encoder = new Thread(this::encode, threadName);
        encoder.setDaemon(true);
    }

    /**
     * Starts the encoder thread, named after the calling thread.
     *
     * @param downstream handles every event on the encoder thread, in order, and keeps its own
     *     failures (as {@link TransactionAssembler} does)
     * @param onFailure ends the connection; called at most once, from either thread
     */
    static FetchPipeline start(BinaryLogClient.EventListener downstream, Runnable onFailure) {
        FetchPipeline pipeline =
                new FetchPipeline(
                        downstream, onFailure, Thread.currentThread().getName() + "-encoder");
        pipeline.encoder.start();
        return pipeline;
    }

    /** On the binlog client's thread: hands the event on, waiting while the handoff is full. */
    @Override
    public void onEvent(Event event) {
        if (failure != null) {
            return;
        }
        try {
            handoff.put(event);
        } catch (InterruptedException e) {
            // The event is not handed on; nor is any after it, so no transaction is published
            // with a hole: the open one is abandoned when the connection ends.
            Thread.currentThread().interrupt();
            fail(e);
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
        onFailure.run();
    }
}
