/**
 * The seam's stand-in, kept apart from the Oracle code on purpose: {@link
 * io.changegrid.fetchers.logminer.standin.StandInMiningStatements} replaces the four Oracle-only
 * statements with calls of PL/pgSQL functions that grid-kit's {@code LogMinerStandIn} creates in a
 * PostgreSQL database, so the rest of the fetcher (every query, the parser, the assembly, the loop)
 * runs unchanged through the real pgjdbc driver. Chosen only by {@code source.dialect:
 * postgresql-stand-in}; never used against Oracle.
 */
package io.changegrid.fetchers.logminer.standin;
