/**
 * TLS to the databases the grid reads and writes: one settings shape ({@link
 * io.changegrid.config.tls.DatabaseTlsKeys}, {@code <prefix>.tls.mode} and {@code
 * <prefix>.tls.caFile}) used by every fetcher and applier, and its translation into what each
 * driver understands (MariaDB Connector/J, pgjdbc, the binlog client's trust managers).
 */
package io.changegrid.config.tls;
