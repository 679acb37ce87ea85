/**
 * The PostgreSQL fetcher ({@code source.type: postgresql}): logical decoding with the built-in
 * pgoutput plugin through pgjdbc's replication API, one slot and one publication per relay. A
 * transaction's SCN is its commit LSN; schemas come from Relation messages and the catalog; rows go
 * through the policy engine's capture router like every fetcher's. See {@code
 * docs/sources/postgresql.md}.
 */
package io.changegrid.fetchers.postgresql;
