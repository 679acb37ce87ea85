/**
 * Conflict resolution for appliers: deciding whether an incoming change replaces the row a target
 * already holds, given both rows' origin (source, SCN, commit time).
 */
package io.changegrid.policy.conflict;
