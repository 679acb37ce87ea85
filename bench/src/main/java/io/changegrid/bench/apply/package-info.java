/**
 * The apply-rate benchmark: whitepaper-shaped rows from a private MariaDB through a relay and an
 * in-process consumer whose callback is the JDBC applier, into PostgreSQL or MariaDB, exactly once,
 * on one lane or several.
 */
package io.changegrid.bench.apply;
