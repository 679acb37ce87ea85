/**
 * Partitioning, one definition shared by relays (which part of a source a relay captures) and
 * consumers (which part of a stream a consumer takes): by table, by key hash, by a column's value
 * or by ranges of it. Key-hash partitioning agrees with the partition hash in every frame header.
 */
package io.changegrid.policy.partition;
