package io.changegrid.relay.stream;

import io.changegrid.relay.buffer.SegmentPin;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Releases the pin of a response sent in place ({@link StreamExchange}) once, however many paths
 * end the response.
 *
 * <p>Thread-safe.
 */
final class Unpin implements Runnable {
    private final SegmentPin pin;
    private final AtomicBoolean done = new AtomicBoolean();

    Unpin(SegmentPin pin) {
        this.pin = pin;
    }

    @Override
    public void run() {
        if (done.compareAndSet(false, true)) {
            pin.release();
        }
    }
}
