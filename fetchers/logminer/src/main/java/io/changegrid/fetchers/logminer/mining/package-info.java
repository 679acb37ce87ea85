/**
 * The mining loop's database side: the few Oracle-only statements behind the {@link
 * io.changegrid.fetchers.logminer.mining.MiningStatements} seam (PL/SQL that starts and ends a
 * LogMiner session, adds log files, reads the current SCN, sets the session's formats), and the
 * plain SQL every source answers alike: the one {@code V$LOGMNR_CONTENTS} query per window and the
 * source checks.
 */
package io.changegrid.fetchers.logminer.mining;
