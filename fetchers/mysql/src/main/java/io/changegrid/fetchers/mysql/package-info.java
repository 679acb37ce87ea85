/**
 * The MySQL/MariaDB fetcher ({@code source.type: mysql}): reads a server's binlog with the
 * replication protocol ({@link io.changegrid.fetchers.mysql.BinlogFetcher}), assembles whole
 * transactions and routes their rows through the relay's capture router. {@link
 * io.changegrid.fetchers.mysql.MySqlFetcherProvider} is its entry in the fetcher SPI, {@link
 * io.changegrid.fetchers.mysql.MySqlSettings} its {@code source.*} settings, and {@link
 * io.changegrid.fetchers.mysql.ResumePosition} the position it hands the relay to store.
 */
package io.changegrid.fetchers.mysql;
