package io.changegrid.appliers.schema;

/** What the applier does when a source table's columns differ from the target table's. */
public enum SchemaChangeMode {
    /** ALTER the target table (add, drop, rename, retype columns) before the next row. */
    APPLY,
    /** Stop with an error naming the table and columns; an operator changes the target. */
    REFUSE
}
