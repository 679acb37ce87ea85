package io.changegrid.consumer;

import io.changegrid.protocol.SnapshotCursor;

/**
 * How far a running snapshot got (docs/bootstrap.md), for the status endpoint and the console: the
 * table being copied, the cursor last checkpointed, and the snapshot rows handed to the callback.
 *
 * @param database the table's database (or schema); null before the relay named the first table
 * @param table the table being copied; null before the relay named the first table
 * @param cursor the snapshot cursor last checkpointed ({@code start} before the first answer)
 * @param rowsDelivered snapshot rows handed to the callback since this consumer started,
 *     re-deliveries included
 */
public record SnapshotProgress(String database, String table, String cursor, long rowsDelivered) {

    /** The progress at {@code cursor}; null when no snapshot runs ({@code cursor} null). */
    static SnapshotProgress at(String cursor, long rowsDelivered) {
        if (cursor == null) {
            return null;
        }
        if (cursor.equals(SnapshotCursor.START)) {
            return new SnapshotProgress(null, null, cursor, rowsDelivered);
        }
        SnapshotCursor parsed = SnapshotCursor.parse(cursor);
        return new SnapshotProgress(parsed.database(), parsed.table(), cursor, rowsDelivered);
    }
}
