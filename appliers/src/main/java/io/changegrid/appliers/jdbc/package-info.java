/**
 * The JDBC applier: {@link io.changegrid.appliers.jdbc.JdbcApplier}, a consumer callback that
 * writes a source's row changes into PostgreSQL or MariaDB/MySQL by primary key, exactly once, and
 * the {@link io.changegrid.consumer.api.CheckpointStore} that resumes a consumer from the target's
 * own checkpoint.
 */
package io.changegrid.appliers.jdbc;
