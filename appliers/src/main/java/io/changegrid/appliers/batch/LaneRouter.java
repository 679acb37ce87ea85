package io.changegrid.appliers.batch;

import io.changegrid.events.schema.TableSchema;
import java.util.Arrays;
import java.util.Locale;

/**
 * Chooses the lane of a row change. Every choice is a pure function of the change (its key, a
 * column value, its SCN and index), so a change delivered again after a crash goes to the same
 * lane, whose checkpoint then says whether it was applied.
 *
 * <p>Whatever the router, the applier keeps per-key order: before a change goes to a lane while
 * another lane still holds an uncommitted change of the same row, it commits every lane (a
 * barrier). {@link ByKey} never needs one; the others trade barriers for spread.
 */
public sealed interface LaneRouter {

    /**
     * @param table the row's source table version
     * @param key the row's key values
     * @param row the row image the change routes by (after image; before image for deletes)
     * @param scn the transaction's SCN
     * @param index the event's position among the events delivered in its transaction (the same on
     *     every replica relay, unlike the frame's index)
     * @param lanes the number of lanes, at least 1
     * @return the lane, 0 .. lanes - 1
     */
    int lane(TableSchema table, RowKey key, Object[] row, long scn, int index, int lanes);

    /**
     * A router from its configuration text ({@code apply.partitioner}): {@code key}, {@code
     * transaction}, {@code event} or {@code column:<name>}.
     *
     * @throws IllegalArgumentException naming the text if it is none of these
     */
    static LaneRouter parse(String text) {
        String trimmed = text.trim();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (lower.startsWith("column:") && trimmed.length() > "column:".length()) {
            return new ByColumn(trimmed.substring("column:".length()).trim());
        }
        return switch (lower) {
            case "key" -> new ByKey();
            case "transaction" -> new ByTransaction();
            case "event" -> new ByEvent();
            default ->
                    throw new IllegalArgumentException(
                            "unknown lane router, expected key, transaction, event or column:<name>:"
                                    + " value="
                                    + text);
        };
    }

    /**
     * By primary key hash and the source table's qualified name: each row always in the same lane.
     * Not by table id: each relay numbers tables in the order it first sees them, so after a
     * failover to another relay the same row would hash to another lane, and lanes resuming at
     * different checkpoints would skip or replay the wrong changes.
     */
    record ByKey() implements LaneRouter {
        @Override
        public int lane(
                TableSchema table, RowKey key, Object[] row, long scn, int index, int lanes) {
            return spread(key.hashCode() * 31 + table.qualifiedName().hashCode(), lanes);
        }
    }

    /**
     * By one column's value (a customer id, say), for tables that have it; by key for the others. A
     * row whose column value changes moves lanes behind a barrier.
     */
    record ByColumn(String column) implements LaneRouter {
        @Override
        public int lane(
                TableSchema table, RowKey key, Object[] row, long scn, int index, int lanes) {
            int at = table.indexOf(column);
            if (at < 0) {
                return new ByKey().lane(table, key, row, scn, index, lanes);
            }
            return spread(Arrays.deepHashCode(new Object[] {row[at]}), lanes);
        }
    }

    /** Whole transactions round-robin by SCN. */
    record ByTransaction() implements LaneRouter {
        @Override
        public int lane(
                TableSchema table, RowKey key, Object[] row, long scn, int index, int lanes) {
            return spread(Long.hashCode(scn), lanes);
        }
    }

    /** Events round-robin by (SCN, index). */
    record ByEvent() implements LaneRouter {
        @Override
        public int lane(
                TableSchema table, RowKey key, Object[] row, long scn, int index, int lanes) {
            return spread(Long.hashCode(scn) * 31 + index, lanes);
        }
    }

    /** A well-mixed hash (MurmurHash3's finalizer) reduced to a lane. */
    private static int spread(int hash, int lanes) {
        int h = hash;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, lanes);
    }
}
