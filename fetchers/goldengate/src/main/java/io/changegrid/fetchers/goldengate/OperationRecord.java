package io.changegrid.fetchers.goldengate;

import java.util.ArrayList;
import java.util.List;

/**
 * One operation record as the parser read it; reused from one line to the next. Row images are in
 * the {@link #binding}'s arrays.
 */
final class OperationRecord {

    String table;
    TableBinding binding;
    char opType;
    String opTs;
    long scn = -1;
    final List<String> primaryKeys = new ArrayList<>();
    boolean hasPrimaryKeys;
    String xid;
    String csn;

    /** The transaction indicator (0 begin, 1 middle, 2 end, 3 whole), or -1 when absent. */
    int txind = -1;

    boolean hasBefore;
    boolean hasAfter;

    void clear() {
        table = null;
        binding = null;
        opType = 0;
        opTs = null;
        scn = -1;
        primaryKeys.clear();
        hasPrimaryKeys = false;
        xid = null;
        csn = null;
        txind = -1;
        hasBefore = false;
        hasAfter = false;
    }
}
