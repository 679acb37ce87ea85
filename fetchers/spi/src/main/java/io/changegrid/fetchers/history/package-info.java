/**
 * A fetcher's persisted schema history, whatever the source: an append-only file of lines, each at
 * the SCN of the change it records, read back up to a restart position ({@link
 * io.changegrid.fetchers.history.HistoryFile}). Each source decides what a line holds: the binlog
 * fetcher its catalog operations, the PostgreSQL fetcher the schema versions it registered.
 */
package io.changegrid.fetchers.history;
