package io.changegrid.policy.partition;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.ExpandableBuffer;
import io.changegrid.events.frame.KeyHash;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.TextValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Splits a stream into {@link #partitions()} parts; every row change of a table lands in exactly
 * one, the same in every process. Control events (heartbeats, transaction ends, schema changes)
 * belong to every partition and are not given to a partitioner. Immutable and thread-safe.
 */
public sealed interface Partitioner {

    /** The number of partitions, at least 1. */
    int partitions();

    /**
     * The partition of a row change, in {@code [0, partitions())}.
     *
     * @param schema the schema the images are in
     * @param before the before image, or {@code null}
     * @param after the after image, or {@code null}
     */
    int partitionOf(TableSchema schema, Object[] before, Object[] after);

    /** The partition of a row change event. */
    default int partitionOf(ChangeEvent event) {
        return partitionOf(event.schema(), event.before(), event.after());
    }

    /**
     * The kind and parameters in one fixed form, which relays register and consumers compare to
     * tell whether two splits put the same rows in the same partition: {@code
     * byTable(partitions=4)}, {@code byKeyHash(partitions=4)}, {@code
     * byColumn(column="tenant_id",partitions=4,values={"3":1,"7":0})}, {@code
     * byRange(column="total",bounds=[100,250.5])}. Text (column names, listed values, text bounds)
     * is quoted as in JSON, listed values are sorted, numeric bounds are written without trailing
     * zeros (they compare by value: 100 and 100.0 bound alike); so partitioners configured alike
     * have equal forms however the YAML spelled them.
     */
    String canonicalForm();

    /**
     * Whole tables: the hash of {@code database.table} (UTF-8, MurmurHash3) mod {@code partitions},
     * so a table stays in one partition, in order, under renames of other tables.
     */
    record ByTable(int partitions) implements Partitioner {
        public ByTable {
            checkPartitions(partitions);
        }

        @Override
        public int partitionOf(TableSchema schema, Object[] before, Object[] after) {
            return partitionOfTable(schema.database(), schema.table());
        }

        @Override
        public String canonicalForm() {
            return "byTable(partitions=" + partitions + ")";
        }

        /** The partition of a table by name, for a relay choosing what to capture. */
        public int partitionOfTable(String database, String table) {
            return KeyHash.partition(hashText(database + "." + table), partitions);
        }
    }

    /**
     * Rows by primary key: the frame's partition hash (MurmurHash3 of the key image, or of the
     * table id for a keyless table) mod {@code partitions}, as every relay and consumer computes
     * it.
     */
    record ByKeyHash(int partitions) implements Partitioner {
        /** Where a key image is written to be hashed; per thread, as partitioners are shared. */
        private static final ThreadLocal<ExpandableBuffer> SCRATCH =
                ThreadLocal.withInitial(() -> new ExpandableBuffer(256));

        public ByKeyHash {
            checkPartitions(partitions);
        }

        /** Reads the hash from the frame header: no decoding, no allocation. */
        public int partitionOf(EventFrame frame) {
            return KeyHash.partition(frame.partitionHash(), partitions);
        }

        /**
         * Hashes the row's key image as a frame would ({@link KeyHash#ofRow}); for events already
         * in frames use {@link #partitionOf(EventFrame)}.
         */
        @Override
        public int partitionOf(TableSchema schema, Object[] before, Object[] after) {
            return KeyHash.partition(
                    KeyHash.ofRow(schema, after != null ? after : before, SCRATCH.get()),
                    partitions);
        }

        @Override
        public String canonicalForm() {
            return "byKeyHash(partitions=" + partitions + ")";
        }
    }

    /**
     * Rows by one column's value, e.g. a tenant id: listed values go to their partition, others to
     * the hash of the value's text mod {@code partitions}. NULL, and tables without the column, go
     * to partition 0.
     *
     * @param values value text (decimals in plain form) to partition
     */
    record ByColumn(String column, int partitions, Map<String, Integer> values)
            implements Partitioner {
        public ByColumn {
            checkPartitions(partitions);
            values = Map.copyOf(values);
            for (Map.Entry<String, Integer> entry : values.entrySet()) {
                if (entry.getValue() < 0 || entry.getValue() >= partitions) {
                    throw new IllegalArgumentException(
                            "partition out of range: value="
                                    + entry.getKey()
                                    + ", partition="
                                    + entry.getValue()
                                    + ", partitions="
                                    + partitions);
                }
            }
        }

        @Override
        public int partitionOf(TableSchema schema, Object[] before, Object[] after) {
            Object value = columnValue(schema, before, after, column);
            if (value == null) {
                return 0;
            }
            String text =
                    value instanceof BigDecimal
                            ? ((BigDecimal) value).toPlainString()
                            : value.toString();
            Integer listed = values.get(text);
            return listed != null ? listed : KeyHash.partition(hashText(text), partitions);
        }

        @Override
        public String canonicalForm() {
            StringBuilder form = new StringBuilder("byColumn(column=");
            quote(form, column).append(",partitions=").append(partitions).append(",values={");
            String separator = "";
            for (String value : new TreeMap<>(values).keySet()) {
                quote(form.append(separator), value).append(':').append(values.get(value));
                separator = ",";
            }
            return form.append("})").toString();
        }
    }

    /**
     * Rows by ranges of a numeric or text column: partition {@code i} holds values below {@code
     * bounds[i]} and at or above {@code bounds[i-1]}; the last holds the rest. NULL, values of the
     * other kind, and tables without the column go to partition 0.
     *
     * @param bounds ascending upper bounds, all {@link BigDecimal} or all {@link String}
     */
    record ByRange(String column, List<Comparable<?>> bounds) implements Partitioner {
        public ByRange {
            bounds = List.copyOf(bounds);
            if (bounds.isEmpty()) {
                throw new IllegalArgumentException(
                        "a range partitioner needs bounds: column=" + column);
            }
            for (int i = 1; i < bounds.size(); i++) {
                if (bounds.get(i).getClass() != bounds.get(0).getClass()
                        || order(bounds.get(i - 1), bounds.get(i)) >= 0) {
                    throw new IllegalArgumentException(
                            "range bounds must ascend and be of one kind: column="
                                    + column
                                    + ", value="
                                    + bounds);
                }
            }
        }

        @Override
        public int partitions() {
            return bounds.size() + 1;
        }

        @Override
        public int partitionOf(TableSchema schema, Object[] before, Object[] after) {
            Object value = columnValue(schema, before, after, column);
            Comparable<?> key = null;
            if (value instanceof String && bounds.get(0) instanceof String) {
                key = (String) value;
            } else if (value instanceof Number && bounds.get(0) instanceof BigDecimal) {
                key =
                        value instanceof BigDecimal
                                ? (BigDecimal) value
                                : value instanceof BigInteger
                                        ? new BigDecimal((BigInteger) value)
                                        : value instanceof Long
                                                ? BigDecimal.valueOf((Long) value)
                                                : BigDecimal.valueOf(
                                                        ((Number) value).doubleValue());
            }
            if (key == null) {
                return 0;
            }
            int low = 0;
            int high = bounds.size();
            while (low < high) { // first bound above the value
                int mid = (low + high) >>> 1;
                if (order(key, bounds.get(mid)) < 0) {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            return low;
        }

        @Override
        public String canonicalForm() {
            StringBuilder form = new StringBuilder("byRange(column=");
            quote(form, column).append(",bounds=[");
            String separator = "";
            for (Comparable<?> bound : bounds) {
                form.append(separator);
                if (bound instanceof String) {
                    quote(form, (String) bound);
                } else {
                    form.append(((BigDecimal) bound).stripTrailingZeros().toPlainString());
                }
                separator = ",";
            }
            return form.append("])").toString();
        }

        private static int order(Comparable<?> a, Comparable<?> b) {
            return a instanceof String
                    ? ((String) a).compareTo((String) b)
                    : ((BigDecimal) a).compareTo((BigDecimal) b);
        }
    }

    private static Object columnValue(
            TableSchema schema, Object[] before, Object[] after, String column) {
        int index = schema.indexOf(column);
        Object[] row = after != null ? after : before;
        // Text may arrive as the source's UTF-8 bytes (see TextValues): partition by the text.
        return index < 0 || row == null
                ? null
                : TextValues.decoded(schema.column(index).type(), row[index]);
    }

    /** Appends {@code text} as a JSON string. */
    private static StringBuilder quote(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"');
    }

    private static int hashText(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return KeyHash.murmur3(ByteBuffer.wrap(bytes), 0, bytes.length);
    }

    private static void checkPartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1: value=" + partitions);
        }
    }
}
