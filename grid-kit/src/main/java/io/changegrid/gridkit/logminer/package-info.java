/**
 * The Oracle LogMiner stand-in: a PostgreSQL database (grid-kit's {@code PostgresServer}) serving
 * relations named and typed as Oracle's ({@code v$logmnr_contents}, {@code v$database}, {@code
 * all_tab_columns}, ...; unquoted, so Oracle's unquoted query text resolves them as Oracle resolves
 * its upper-case names), whose {@code v$logmnr_contents} rows are visible only inside a LogMiner
 * session's SCN window, as in Oracle; and a seeded {@link
 * io.changegrid.gridkit.logminer.LogMinerWorkload} that renders transactions into LogMiner rows in
 * LogMiner's exact {@code SQL_REDO} syntax while a fetcher polls; {@link
 * io.changegrid.gridkit.logminer.LoadRedo} renders the load generator's workload the same way, so
 * the binlog and LogMiner sources can be given one workload. Used by the fetcher's tests and the
 * bench alike; holds no test library.
 */
package io.changegrid.gridkit.logminer;
