package io.changegrid.events;

import io.changegrid.events.schema.TableSchema;
import java.util.Arrays;
import java.util.Objects;

/**
 * One event of a source transaction as plain Java objects: what callbacks and tools see when they
 * do not read frames directly.
 *
 * <p>Row changes have a schema and images; SCHEMA_CHANGE has the new schema and its DDL; HEARTBEAT
 * and END_OF_TRANSACTION have neither. Row image values are in column order and have the Java types
 * listed in {@link io.changegrid.events.value.ValueType}.
 *
 * @param sourceId the source's id
 * @param scn the transaction's position on the source's timeline
 * @param index the event's index in its transaction (for END_OF_TRANSACTION, the event count)
 * @param commitTimeMicros the source commit time, microseconds since the epoch
 * @param transactionId the source's transaction id (e.g. a GTID); empty for heartbeats
 * @param operation what happened
 * @param schema the schema that decodes the images, or the new schema of a SCHEMA_CHANGE; {@code
 *     null} for HEARTBEAT and END_OF_TRANSACTION
 * @param before the row before the change (UPDATE, DELETE), else {@code null}
 * @param after the row after the change (INSERT, UPDATE), else {@code null}
 * @param ddl the DDL statement of a SCHEMA_CHANGE, else {@code null}
 */
public record ChangeEvent(
        int sourceId,
        long scn,
        int index,
        long commitTimeMicros,
        String transactionId,
        Operation operation,
        TableSchema schema,
        Object[] before,
        Object[] after,
        String ddl) {

    /** The primary key values of the row, in key order, or an empty array for a keyless table. */
    public Object[] key() {
        if (schema == null || !operation.isRowChange()) {
            return new Object[0];
        }
        Object[] row = after != null ? after : before;
        Object[] key = new Object[schema.keySize()];
        for (int k = 0; k < key.length; k++) {
            key[k] = row[schema.keyIndex(k)];
        }
        return key;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChangeEvent that
                && sourceId == that.sourceId
                && scn == that.scn
                && index == that.index
                && commitTimeMicros == that.commitTimeMicros
                && Objects.equals(transactionId, that.transactionId)
                && operation == that.operation
                && Objects.equals(schema, that.schema)
                && Arrays.deepEquals(before, that.before)
                && Arrays.deepEquals(after, that.after)
                && Objects.equals(ddl, that.ddl);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceId, scn, index, operation, Arrays.deepHashCode(after));
    }

    @Override
    public String toString() {
        return "ChangeEvent[source="
                + sourceId
                + ", scn="
                + scn
                + ", index="
                + index
                + ", op="
                + operation
                + ", table="
                + (schema == null ? "-" : schema.qualifiedName())
                + ", txn="
                + transactionId
                + ", before="
                + Arrays.deepToString(before)
                + ", after="
                + Arrays.deepToString(after)
                + (ddl == null ? "" : ", ddl=" + ddl)
                + "]";
    }
}
