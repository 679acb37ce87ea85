package io.changegrid.appliers.jdbc;

/** How a lane writes a commit's rows into the target. */
public enum ApplyMode {
    /** JDBC batches of upserts and deletes by key (multi-row INSERTs, MariaDB's bulk protocol). */
    STATEMENT,
    /**
     * PostgreSQL only: the rows go into a temporary staging table by {@code COPY}, then one {@code
     * DELETE ... USING} and one {@code INSERT ... SELECT ... ON CONFLICT DO UPDATE} per table merge
     * them into the target, in the same transaction as the checkpoint row.
     */
    STAGING
}
