package io.changegrid.relay.buffer;

import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one buffer, as a copy-on-write array: the writer walks it after every append
 * without locking or allocating; adding and removing, which readers do rarely, copy it.
 *
 * <p>Thread-safe.
 */
final class AppendListeners {

    private static final Logger LOG = LoggerFactory.getLogger(AppendListeners.class);
    private static final AppendListener[] NONE = new AppendListener[0];

    private volatile AppendListener[] listeners = NONE;

    synchronized void add(AppendListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("append listener must not be null");
        }
        AppendListener[] current = listeners;
        AppendListener[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = listener;
        listeners = next;
    }

    synchronized boolean remove(AppendListener listener) {
        AppendListener[] current = listeners;
        for (int i = 0; i < current.length; i++) {
            if (current[i] == listener) {
                AppendListener[] next = new AppendListener[current.length - 1];
                System.arraycopy(current, 0, next, 0, i);
                System.arraycopy(current, i + 1, next, i, current.length - i - 1);
                listeners = next;
                return true;
            }
        }
        return false;
    }

    /** Writer: tells every listener. */
    void onAppend(long newestScn) {
        for (AppendListener listener : listeners) {
            try {
                listener.onAppend(newestScn);
            } catch (RuntimeException e) {
                // A listener runs on the writer thread: letting this propagate would fail the
                // append and stop the source for one waiter's bug. Dropping the listener keeps
                // it from failing (and logging) on every append; its owner sees no more calls.
                remove(listener);
                LOG.error(
                        "append listener failed and was removed: listener={}, newestScn={}",
                        listener,
                        newestScn,
                        e);
            }
        }
    }

    int size() {
        return listeners.length;
    }
}
