package io.changegrid.fetchers.logminer.redo;

import java.util.Arrays;

/**
 * One parsed {@code SQL_REDO} row change. Column names are as LogMiner quotes them (the
 * dictionary's spelling); values stay untyped.
 *
 * <ul>
 *   <li>INSERT: {@code columns}/{@code values} are the VALUES list; no condition.
 *   <li>UPDATE: {@code columns}/{@code values} are the SET list; {@code whereColumns}/{@code
 *       whereValues} the WHERE conditions (with supplemental logging of all columns, the whole old
 *       row apart from LOBs).
 *   <li>DELETE: no SET list; the WHERE conditions are the old row.
 * </ul>
 *
 * The arrays are owned by the statement; callers do not change them.
 */
public record RedoStatement(
        Kind kind,
        String owner,
        String table,
        String[] columns,
        RedoValue[] values,
        String[] whereColumns,
        RedoValue[] whereValues) {

    /** The statement kinds LogMiner renders for row changes. */
    public enum Kind {
        INSERT,
        UPDATE,
        DELETE
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RedoStatement that
                && kind == that.kind
                && owner.equals(that.owner)
                && table.equals(that.table)
                && Arrays.equals(columns, that.columns)
                && Arrays.equals(values, that.values)
                && Arrays.equals(whereColumns, that.whereColumns)
                && Arrays.equals(whereValues, that.whereValues);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * kind.hashCode() + owner.hashCode()) + table.hashCode();
    }

    @Override
    public String toString() {
        return kind
                + " "
                + owner
                + "."
                + table
                + " columns="
                + Arrays.toString(columns)
                + " values="
                + Arrays.toString(values)
                + " where="
                + Arrays.toString(whereColumns)
                + "="
                + Arrays.toString(whereValues);
    }
}
