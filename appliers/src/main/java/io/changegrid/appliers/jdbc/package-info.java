/**
 * The JDBC applier: {@link io.changegrid.appliers.jdbc.JdbcApplier}, a consumer callback that
 * writes a source's row changes into PostgreSQL or MariaDB/MySQL by primary key, exactly once, and
 * the {@link io.changegrid.consumer.api.CheckpointStore} that resumes a consumer from the target's
 * own checkpoint.
 *
 * <p>The applier's parts, each with one job and all on the consumer's dispatcher thread: {@link
 * io.changegrid.appliers.jdbc.RowPlacer} places row changes into lanes (with a barrier when a row
 * waits in another lane), {@link io.changegrid.appliers.jdbc.CommitRound} commits every lane with
 * its checkpoint, {@link io.changegrid.appliers.jdbc.SchemaChangeCommit} alters a target table and
 * moves the checkpoints past the change.
 */
package io.changegrid.appliers.jdbc;
