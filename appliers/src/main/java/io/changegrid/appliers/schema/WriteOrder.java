package io.changegrid.appliers.schema;

/**
 * Whether the applier's settings let it write a table's row changes one by one in source commit
 * order, which keeps a target table's unique keys and foreign keys valid at every step (the source
 * kept them valid at every step); if not, the setting that prevents it, named in the refusal of a
 * table with such constraints.
 *
 * @param brokenBy the setting that writes rows out of source order, e.g. {@code apply.lanes=4}, or
 *     {@code null} when rows can be written in source order
 */
public record WriteOrder(String brokenBy) {

    /** One lane, statements, no conflict resolution: rows can go in source commit order. */
    public static WriteOrder sourceOrder() {
        return new WriteOrder(null);
    }

    /** Whether rows of a constrained table can be written in source commit order. */
    public boolean keepsSourceOrder() {
        return brokenBy == null;
    }
}
