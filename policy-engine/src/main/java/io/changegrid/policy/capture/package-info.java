/**
 * Policies as a fetcher applies them before events are stored: which tables are captured, and per
 * table schema version the route its rows take (row predicate, transform, partition).
 */
package io.changegrid.policy.capture;
