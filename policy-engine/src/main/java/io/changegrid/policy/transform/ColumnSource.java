package io.changegrid.policy.transform;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.frame.KeyHash;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Where an added column's value comes from. Immutable and thread-safe. */
public sealed interface ColumnSource {

    /** The value type of the added column. */
    ValueType type();

    /**
     * The value for one row change.
     *
     * @param source the schema of the source table (before any rename)
     * @param sourceId the source's id
     * @param scn the transaction's SCN
     * @param commitTimeMicros the source commit time
     */
    Object value(TableSchema source, int sourceId, long scn, long commitTimeMicros);

    /** The value for one event, which carries the source schema. */
    default Object value(ChangeEvent event) {
        return value(event.schema(), event.sourceId(), event.scn(), event.commitTimeMicros());
    }

    /**
     * Whether the value depends on the table alone, so a transformer computes it once per schema
     * instead of once per row.
     */
    boolean perTable();

    /**
     * Whether the value describes the change itself (its SCN, its commit time) rather than the row:
     * such a value is unknown for a before image, which an earlier change wrote.
     */
    default boolean describesTheChange() {
        return false;
    }

    /** The same text on every row. */
    record Constant(String text) implements ColumnSource {
        @Override
        public ValueType type() {
            return ValueType.STRING;
        }

        @Override
        public Object value(TableSchema source, int sourceId, long scn, long commitTimeMicros) {
            return text;
        }

        @Override
        public boolean perTable() {
            return true;
        }
    }

    /** Facts about the event rather than the row. */
    enum Metadata implements ColumnSource {
        /** The source database name (before any rename), STRING. */
        DATABASE(ValueType.STRING),
        /**
         * A stable hash of the source database name: MurmurHash3 (as {@link KeyHash}) of its UTF-8
         * bytes, as an INT64 in [0, 2^32) — the same in every process and version.
         */
        DATABASE_HASH(ValueType.INT64),
        /** The transaction's SCN, INT64. */
        SCN(ValueType.INT64),
        /** The source commit time, TIMESTAMP. */
        COMMIT_TIME(ValueType.TIMESTAMP),
        /** The source id, INT64. */
        SOURCE_ID(ValueType.INT64);

        private final ValueType type;

        Metadata(ValueType type) {
            this.type = type;
        }

        @Override
        public ValueType type() {
            return type;
        }

        @Override
        public Object value(TableSchema source, int sourceId, long scn, long commitTimeMicros) {
            switch (this) {
                case DATABASE:
                    return source.database();
                case DATABASE_HASH:
                    return hashOf(source.database());
                case SCN:
                    return scn;
                case COMMIT_TIME:
                    return Instant.ofEpochSecond(
                            Math.floorDiv(commitTimeMicros, 1_000_000L),
                            Math.floorMod(commitTimeMicros, 1_000_000L) * 1000L);
                default:
                    return (long) sourceId;
            }
        }

        @Override
        public boolean perTable() {
            return this == DATABASE || this == DATABASE_HASH;
        }

        @Override
        public boolean describesTheChange() {
            return this == SCN || this == COMMIT_TIME;
        }

        /** The stable hash of a name, as {@link #DATABASE_HASH} computes it. */
        public static long hashOf(String name) {
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            return Integer.toUnsignedLong(KeyHash.murmur3(ByteBuffer.wrap(bytes), 0, bytes.length));
        }
    }
}
