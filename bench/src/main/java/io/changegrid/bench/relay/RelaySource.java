package io.changegrid.bench.relay;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What the relays of a run read: how relay {@code i}'s {@code source:} section names the server and
 * where it starts, and how its status position compares with the end of the load. A MySQL/MariaDB
 * binlog ({@link BinlogRelaySource}) or a PostgreSQL slot per relay (the stage-1 package's {@code
 * PostgresRelaySource}); closing it releases what it holds on the server (e.g. the slots), after
 * the relays have stopped.
 */
public interface RelaySource extends AutoCloseable {

    /** Fills relay {@code index}'s {@code source:} section (heartbeats are set by the caller). */
    void configure(ObjectNode source, int index);

    /** The database (MySQL) or schema (PostgreSQL) the load wrote: what the relays capture. */
    String database();

    /**
     * The SCN of a relay's {@code /v1/status} {@code fetch.position}: the same order as the end
     * given to {@link RelayFleet#awaitCatchUp(long, long)}.
     */
    long scnOf(String position);

    /** Nothing to release, by default. */
    @Override
    default void close() throws java.sql.SQLException {}
}
