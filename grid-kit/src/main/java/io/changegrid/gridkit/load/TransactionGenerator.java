package io.changegrid.gridkit.load;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Builds the load's transactions: each on one table, the tables taken round-robin so they get equal
 * shares; each row change an insert, update or delete drawn by the mix, updates and deletes on live
 * rows. A transaction is at most three multi-row statements, so the database sees few round trips:
 *
 * <ul>
 *   <li>{@code INSERT ... VALUES (...), (...)} for new rows;
 *   <li>{@code INSERT ... VALUES ... ON DUPLICATE KEY UPDATE} with fresh random values for existing
 *       rows, logged as one UPDATE row event each;
 *   <li>{@code DELETE ... WHERE id IN (...)}.
 * </ul>
 *
 * <p>Not thread-safe: runs on the generator thread.
 */
final class TransactionGenerator {

    private static final String COLUMNS = "(id," + String.join(",", RowValues.VALUE_COLUMNS) + ")";

    private final WorkloadTables tables;
    private final String upsert;
    private final OperationMix mix;
    private final RowValues values;
    private final SplittableRandom random;
    private final LiveKeys[] live;
    private final int estimatedRowChars;
    private int nextTable;

    TransactionGenerator(WorkloadTables tables, LoadShape shape) {
        this(tables, shape, new long[tables.names().size()][]);
    }

    /**
     * A generator whose tables already hold rows: {@code existing[t]} the ids of table {@code t}'s
     * rows (ordered by id), updates and deletes pick among them, inserts take ids above them.
     */
    TransactionGenerator(WorkloadTables tables, LoadShape shape, long[][] existing) {
        this.tables = tables;
        this.upsert = tables.dialect().upsertClause(RowValues.VALUE_COLUMNS);
        this.mix = shape.mix();
        this.values = new RowValues(shape.recordSize(), shape.seed(), tables.dialect().now());
        this.random = new SplittableRandom(shape.seed() * 31 + 7);
        this.live = new LiveKeys[tables.names().size()];
        for (int i = 0; i < live.length; i++) {
            live[i] = existing[i] == null ? new LiveKeys() : LiveKeys.existing(existing[i]);
        }
        this.estimatedRowChars = shape.recordSize() + 120;
    }

    /** The longest note text, for the tables' DDL. */
    int maxText() {
        return values.maxText();
    }

    /** The next transaction of {@code rowChanges} row changes. */
    GeneratedTransaction next(int rowChanges) {
        int table = nextTable;
        nextTable = (nextTable + 1) % live.length;
        LiveKeys keys = live[table];
        String name = tables.qualified(table);
        StringBuilder inserts = null;
        StringBuilder upserts = null;
        StringBuilder deletes = null;
        int inserted = 0;
        int updated = 0;
        int deleted = 0;
        Set<Long> touched = new HashSet<>();
        for (int i = 0; i < rowChanges; i++) {
            int draw = random.nextInt(100);
            long id = -1;
            if (draw >= mix.insert() && keys.size() > touched.size()) {
                int position = keys.pick(random);
                if (touched.add(keys.idAt(position))) {
                    id = draw < mix.insert() + mix.update() ? keys.idAt(position) : -position - 2;
                }
            }
            if (id == -1) {
                inserts = start(inserts, rowChanges, "INSERT INTO " + name + COLUMNS + " VALUES ");
                values.appendRow(inserts, keys.insert());
                inserted++;
            } else if (id >= 0) {
                upserts = start(upserts, rowChanges, "INSERT INTO " + name + COLUMNS + " VALUES ");
                values.appendRow(upserts, id);
                updated++;
            } else {
                deletes = start(deletes, 16, "DELETE FROM " + name + " WHERE id IN (");
                deletes.append(keys.removeAt((int) (-id - 2)));
                deleted++;
            }
        }
        List<String> statements = new ArrayList<>(3);
        if (inserts != null) {
            statements.add(inserts.toString());
        }
        if (upserts != null) {
            statements.add(upserts.append(upsert).toString());
        }
        if (deletes != null) {
            statements.add(deletes.append(')').toString());
        }
        return new GeneratedTransaction(statements, inserted, updated, deleted);
    }

    /** A statement's builder with its head, or the separator before its next element. */
    private StringBuilder start(StringBuilder sql, int elements, String head) {
        if (sql == null) {
            return new StringBuilder(elements * estimatedRowChars).append(head);
        }
        return sql.append(',');
    }
}
