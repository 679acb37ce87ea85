package io.changegrid.gridkit.load;

import java.util.List;

/**
 * One source transaction, ready to run: its statements and the row changes they make (each one
 * event in the binlog).
 */
record GeneratedTransaction(List<String> statements, int inserts, int updates, int deletes) {

    /** Marks the end of the load in the generator's queue. */
    static final GeneratedTransaction END = new GeneratedTransaction(List.of(), 0, 0, 0);

    int rowChanges() {
        return inserts + updates + deletes;
    }
}
