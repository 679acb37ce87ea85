package io.changegrid.fetchers.logminer.assembly;

import java.util.ArrayList;
import java.util.List;

/** A transaction whose START was read and whose COMMIT or ROLLBACK was not yet. */
final class OpenTransaction {

    /**
     * One captured change, parsed at commit (so a row later undone or rolled back is never parsed).
     *
     * @param binding the table's schema version when the row was read; null for a DDL
     * @param ddlTable the table of a DDL row, or null
     * @param refusal why the transaction cannot be published, or null
     */
    record Entry(
            long scn,
            String rowId,
            String sqlRedo,
            TableBinding binding,
            String ddlTable,
            String refusal) {}

    private final String xid;
    private final long startScn;
    private final List<Entry> entries = new ArrayList<>();
    private String locatedLob;

    OpenTransaction(String xid, long startScn) {
        this.xid = xid;
        this.startScn = startScn;
    }

    String xid() {
        return xid;
    }

    long startScn() {
        return startScn;
    }

    /** The column of the LOB the transaction's last {@code SELECT_LOB_LOCATOR} located, or null. */
    String locatedLob() {
        return locatedLob;
    }

    void locatedLob(String column) {
        locatedLob = column;
    }

    List<Entry> entries() {
        return entries;
    }

    void add(Entry entry) {
        entries.add(entry);
    }

    /**
     * Undoes the latest row of {@code rowId}: a {@code ROLLBACK = 1} row (rollback to a savepoint)
     * reverses the changes after the savepoint one by one, latest first.
     *
     * @return false when no row of that id is left to undo
     */
    boolean undo(String rowId) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry entry = entries.get(i);
            if (entry.binding() != null && rowId.equals(entry.rowId())) {
                entries.remove(i);
                return true;
            }
        }
        return false;
    }
}
