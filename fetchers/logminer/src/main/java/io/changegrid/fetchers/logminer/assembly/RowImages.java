package io.changegrid.fetchers.logminer.assembly;

import io.changegrid.events.Operation;
import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.fetchers.logminer.redo.RedoStatement;
import io.changegrid.fetchers.logminer.redo.RedoValue;
import io.changegrid.fetchers.logminer.schema.OracleColumn;
import io.changegrid.fetchers.logminer.schema.OracleValues;
import java.util.Arrays;

/**
 * Builds the before and after images of a parsed row change, typed by the table's columns.
 *
 * <ul>
 *   <li>INSERT: the VALUES list is the after image; a column LogMiner leaves out is NULL (its
 *       INSERT names every column it stored).
 *   <li>DELETE: the WHERE conditions are the before image. With supplemental logging of all columns
 *       every column is there except LOBs, which LogMiner never puts in a WHERE: those are NULL in
 *       a delete's before image (documented), a key never being a LOB.
 *   <li>UPDATE: the WHERE conditions are the before image, the after image is it with the SET list
 *       applied. A column in neither cannot be rendered in the after image, so a LOB column an
 *       update does not set is refused naming the table and column: publishing it as NULL would
 *       overwrite the consumer's copy.
 * </ul>
 *
 * {@code Unsupported Type} in a captured column is refused, naming the table and column.
 */
final class RowImages {

    /** A row change's operation and images. */
    record Change(Operation operation, Object[] before, Object[] after) {}

    private RowImages() {}

    static Change of(TableBinding table, RedoStatement statement, String where) {
        return switch (statement.kind()) {
            case INSERT -> {
                Object[] after = new Object[table.width()];
                fill(table, statement.columns(), statement.values(), after, null, where);
                yield new Change(Operation.INSERT, null, after);
            }
            case DELETE -> {
                Object[] before = new Object[table.width()];
                boolean[] seen = new boolean[table.width()];
                fill(table, statement.whereColumns(), statement.whereValues(), before, seen, where);
                requireSeen(table, seen, true, "delete", where);
                yield new Change(Operation.DELETE, before, null);
            }
            case UPDATE -> {
                Object[] before = new Object[table.width()];
                boolean[] seen = new boolean[table.width()];
                fill(table, statement.whereColumns(), statement.whereValues(), before, seen, where);
                Object[] after = Arrays.copyOf(before, before.length);
                fill(table, statement.columns(), statement.values(), after, seen, where);
                requireSeen(table, seen, false, "update", where);
                yield new Change(Operation.UPDATE, before, after);
            }
        };
    }

    private static void fill(
            TableBinding table,
            String[] names,
            RedoValue[] values,
            Object[] image,
            boolean[] seen,
            String where) {
        for (int i = 0; i < names.length; i++) {
            int position = table.position(names[i]);
            if (position < 0) {
                throw new FetchFailedException(
                        "SQL_REDO names a column the table's schema lacks: table="
                                + table.schema().qualifiedName()
                                + ", column="
                                + names[i]
                                + ", "
                                + where
                                + "; the table changed without a DDL row the fetcher saw");
            }
            OracleColumn column = table.column(position);
            try {
                image[position] = OracleValues.read(column.type(), values[i]);
            } catch (IllegalArgumentException e) {
                throw new FetchFailedException(
                        "cannot read a captured column's value: table="
                                + table.schema().qualifiedName()
                                + ", column="
                                + column.name()
                                + ", type="
                                + column.type().declared()
                                + ", "
                                + where
                                + ", reason="
                                + e.getMessage()
                                + "; exclude the table (capture.exclude) or change the column's type",
                        e);
            }
            if (seen != null) {
                seen[position] = true;
            }
        }
    }

    private static void requireSeen(
            TableBinding table, boolean[] seen, boolean lobsMayLack, String what, String where) {
        for (int i = 0; i < seen.length; i++) {
            OracleColumn column = table.column(i);
            if (!seen[i] && !(lobsMayLack && column.type().kind().isLob())) {
                throw new FetchFailedException(
                        what
                                + " without the column's value in SQL_REDO: table="
                                + table.schema().qualifiedName()
                                + ", column="
                                + column.name()
                                + ", type="
                                + column.type().declared()
                                + ", "
                                + where
                                + (column.type().kind().isLob()
                                        ? "; LogMiner does not log unchanged LOBs: exclude the column's table"
                                        : "; fix: ALTER TABLE "
                                                + table.schema().qualifiedName()
                                                + " ADD SUPPLEMENTAL LOG DATA (ALL) COLUMNS"));
            }
        }
    }
}
