package io.changegrid.bench.stage1;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.relay.RelaySource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.replication.LogSequenceNumber;

/**
 * Relays reading a {@link PostgresLoad} by logical decoding, each on its own copy of the slot made
 * before the load: replica relays of one source (or relays splitting it by table), every one
 * starting at the load's first transaction. Closing drops the copies, once their WAL senders have
 * let them go; close it after the relays have stopped.
 *
 * <p>A relay's status position is the LSN after the last transaction it read; it reaches the end of
 * the load ({@link PostgresLoad#to()}) once the relay has read the last commit.
 *
 * <p>Threading: one harness thread uses it.
 */
public final class PostgresRelaySource implements RelaySource {

    private final PostgresLoad load;
    private final List<String> slots;

    private PostgresRelaySource(PostgresLoad load, List<String> slots) {
        this.load = load;
        this.slots = slots;
    }

    /**
     * Copies the load's start slot once per relay, named {@code prefix_<relay>}.
     *
     * @param prefix unique among the slots of the load still open (a run's name)
     */
    public static PostgresRelaySource open(PostgresLoad load, int relays, String prefix)
            throws Exception {
        PostgresRelaySource source = new PostgresRelaySource(load, new ArrayList<>());
        try {
            for (int i = 0; i < relays; i++) {
                source.slots.add(load.copySlot(prefix + "_" + i));
            }
        } catch (Exception e) {
            source.close();
            throw e;
        }
        return source;
    }

    @Override
    public void configure(ObjectNode node, int index) {
        node.put("type", "postgresql");
        node.put("host", load.host());
        node.put("port", load.port());
        node.put("database", PostgresLoad.DATABASE);
        node.put("user", load.user());
        node.put("slot", slots.get(index));
        node.put("publication", PostgresLoad.PUBLICATION);
        node.put("createPublication", false);
        node.put("start", load.from());
    }

    @Override
    public String database() {
        return PostgresLoad.SCHEMA;
    }

    @Override
    public long scnOf(String position) {
        return lsn(position);
    }

    /** The LSN written {@code X/Y}, as a number. */
    public static long lsn(String text) {
        LogSequenceNumber lsn = LogSequenceNumber.valueOf(text);
        if (lsn.equals(LogSequenceNumber.INVALID_LSN)) {
            throw new IllegalArgumentException("not an LSN (hex X/Y): text=" + text);
        }
        return lsn.asLong();
    }

    /**
     * Drops every slot copied, the first failure thrown after trying them all.
     *
     * @throws IllegalStateException if interrupted while a slot is still held (interrupt kept)
     */
    @Override
    public void close() throws SQLException {
        SQLException failure = null;
        for (String slot : slots) {
            try {
                load.dropSlot(slot);
            } catch (SQLException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted dropping slots: slots=" + slots, e);
            }
        }
        slots.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
