/**
 * Relays as the harness runs them: each its own JVM ({@code io.changegrid.relay.RelayMain}) over a
 * binlog range already written, split by policies when there are several, measured from outside
 * through their own status and metrics.
 */
package io.changegrid.bench.relay;
