/**
 * {@code V$LOGMNR_CONTENTS} rows into whole transactions on the relay's timeline: rows joined
 * across {@code CSF}, transactions opened by START, undone rows (savepoint rollbacks) removed,
 * committed ones published whole at a {@link io.changegrid.fetchers.logminer.assembly.TimelineScn},
 * and the resume position that lets a restarted fetcher publish each commit exactly once.
 */
package io.changegrid.fetchers.logminer.assembly;
