package io.changegrid.relay.stream;

import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * Gives a copied response's buffer and its serving memory back ({@link StreamExchange}), once,
 * however many paths end the response.
 *
 * <p>Thread-safe.
 */
final class GiveBack implements Runnable {
    private final RetainableByteBuffer pooled;
    private final ServingMemory memory;
    private final long granted;
    private final AtomicBoolean done = new AtomicBoolean();

    GiveBack(RetainableByteBuffer pooled, ServingMemory memory, long granted) {
        this.pooled = pooled;
        this.memory = memory;
        this.granted = granted;
    }

    @Override
    public void run() {
        if (done.compareAndSet(false, true)) {
            pooled.release();
            memory.release(granted);
        }
    }
}
