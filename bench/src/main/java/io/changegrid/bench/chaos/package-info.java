/**
 * {@code bench chaos}: a grid of child processes (a private MariaDB, ZooKeeper, two relays, a group
 * of appliers into PostgreSQL) under a steady mixed load, whose components are killed with SIGKILL
 * at seeded random moments and restarted; at the end the target must equal the source, row for row.
 */
package io.changegrid.bench.chaos;
