/**
 * The snapshot benchmark: whitepaper-shaped rows loaded into a private MariaDB before a relay
 * starts, then copied by a consumer's snapshot (docs/bootstrap.md) into a counting callback or the
 * PostgreSQL applier while a paced live load writes the same tables; rows/s of the snapshot beside
 * the live load's events/s during and after it.
 */
package io.changegrid.bench.snapshot;
