package io.changegrid.relay.buffer;

/**
 * Told that an entry was appended, e.g. to wake the HTTP long-polls waiting for data.
 *
 * <p>Called on the writer thread right after each append is visible to readers, so it must be quick
 * and must never block: complete or signal something and return. Read the data on another thread. A
 * listener that throws is removed (and the failure logged) so that one broken waiter cannot stall
 * the source.
 */
@FunctionalInterface
public interface AppendListener {

    /**
     * @param newestScn the SCN of the entry just appended; readers asking for anything below it now
     *     get data
     */
    void onAppend(long newestScn);
}
