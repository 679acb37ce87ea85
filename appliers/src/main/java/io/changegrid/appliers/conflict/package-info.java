/**
 * Conflict resolution on the apply path, when configured: target tables carry the version of the
 * change that last wrote each row ({@code _cg_source, _cg_scn, _cg_commit_us}); before a lane
 * commits, one query per table reads the current versions of the rows it is about to write, and the
 * policy engine's {@link io.changegrid.policy.conflict.ConflictResolver} decides per row.
 */
package io.changegrid.appliers.conflict;
