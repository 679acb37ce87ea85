/**
 * Micro-batching: a {@link io.changegrid.appliers.batch.LaneRouter} routes each row change to one
 * of several {@link io.changegrid.appliers.batch.Lane}s, each with its own connection, pending rows
 * and checkpoint row; the {@link io.changegrid.appliers.batch.Committer} commits the lanes in
 * parallel and reports success only when every lane committed. A lane writes coalesced changes
 * ({@code CoalescedWrites}, or a staging merge), and the changes of target tables with unique or
 * foreign keys in source commit order ({@code SourceOrderWrites}); every JDBC batch knows the
 * change behind each entry ({@code StatementBatch}), so a refused row is named with its table, key
 * and SCN.
 */
package io.changegrid.appliers.batch;
