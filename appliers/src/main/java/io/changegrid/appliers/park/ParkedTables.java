package io.changegrid.appliers.park;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The source tables parked now, as the applier routes by them, with counters for monitoring. The
 * target's table of parked tables is the durable truth; this set is loaded from it at every
 * (re)connect and changed only after the target's change committed.
 *
 * <p>Threading: changed on the dispatcher thread; read from any thread.
 */
public final class ParkedTables {

    private final Set<String> tables = ConcurrentHashMap.newKeySet();
    private volatile long parks;
    private volatile long recorded;
    private volatile long replayed;

    /** Replaces the set with what the target holds. */
    public void load(Collection<String> parked) {
        tables.retainAll(parked);
        tables.addAll(parked);
    }

    public boolean contains(String table) {
        return tables.contains(table);
    }

    public boolean isEmpty() {
        return tables.isEmpty();
    }

    /** Parks {@code table} in this set, after the target committed its parking. */
    void park(String table) {
        if (tables.add(table)) {
            parks = parks + 1;
        }
    }

    void unpark(String table) {
        tables.remove(table);
    }

    void recorded(long changes) {
        recorded = recorded + changes;
    }

    void replayed(long changes) {
        replayed = replayed + changes;
    }

    /** The parked tables, sorted; a copy. */
    public Set<String> tables() {
        return new TreeSet<>(tables);
    }

    /** Times a table was parked since the applier started. */
    public long parks() {
        return parks;
    }

    /** Changes of parked tables recorded in the dead-letter table (committed or not). */
    public long recorded() {
        return recorded;
    }

    /** Recorded changes replayed into their tables and deleted from the dead-letter table. */
    public long replayed() {
        return replayed;
    }
}
