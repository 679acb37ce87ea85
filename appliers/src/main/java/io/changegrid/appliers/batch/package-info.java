/**
 * Micro-batching: a {@link io.changegrid.appliers.batch.Partitioner} routes each row change to one
 * of several {@link io.changegrid.appliers.batch.Lane}s, each with its own connection, pending rows
 * and checkpoint row; the {@link io.changegrid.appliers.batch.Committer} commits the lanes in
 * parallel and reports success only when every lane committed.
 */
package io.changegrid.appliers.batch;
