package io.changegrid.relay.stream;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.KeyHash;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.TableFilter;
import java.util.HashMap;
import java.util.Map;

/**
 * Which events of the stream one consumer wants: some tables, and partition {@code p} of {@code n}
 * by key hash. Decided from frame headers alone (table id and partition hash), so filtering never
 * decodes a row image; control frames always pass.
 *
 * <p>Not thread-safe (it caches table decisions); one per request.
 */
public final class Subscription {

    private final TableFilter tables;
    private final int partition;
    private final int partitions;
    private final Map<Long, Boolean> tableDecisions = new HashMap<>();

    /**
     * @param tables the tables wanted, or null for all
     * @param partition the partition wanted, in {@code [0, partitions)}
     * @param partitions the number of partitions; 1 for no partitioning
     */
    public Subscription(TableFilter tables, int partition, int partitions) {
        this.tables = tables;
        this.partition = partition;
        this.partitions = partitions;
    }

    /** Whether everything passes, so frames can be copied without looking at them. */
    public boolean isEverything() {
        return tables == null && partitions == 1;
    }

    /** Whether the frame is for this subscriber. */
    public boolean wants(EventFrame frame, SchemaRegistry registry) {
        int op = frame.operationCode();
        if (op == Operation.HEARTBEAT.code() || op == Operation.END_OF_TRANSACTION.code()) {
            return true;
        }
        if (tables != null && !wantsTable(frame.tableId(), frame.schemaVersion(), registry)) {
            return false;
        }
        return op == Operation.SCHEMA_CHANGE.code()
                || partitions == 1
                || KeyHash.partition(frame.partitionHash(), partitions) == partition;
    }

    private boolean wantsTable(int tableId, int version, SchemaRegistry registry) {
        long key = ((long) tableId << 32) | version;
        Boolean decision = tableDecisions.get(key);
        if (decision == null) {
            TableSchema schema = registry.schema(tableId, version);
            decision = tables.matches(schema.database(), schema.table());
            tableDecisions.put(key, decision);
        }
        return decision;
    }
}
