/**
 * The fetcher SPI: what every source fetcher offers a relay, whatever the source. A {@link
 * io.changegrid.fetchers.FetcherProvider}, found by {@code source.type}, owns its {@code source.*}
 * settings and opens a {@link io.changegrid.fetchers.Fetcher}, which hands whole transactions to a
 * {@link io.changegrid.fetchers.TransactionSink} and serialises its own resume position ({@link
 * io.changegrid.fetchers.FetchPosition}). Which tables, rows and partitions are published is not a
 * fetcher's decision: every fetcher routes through the policy engine's {@link
 * io.changegrid.policy.capture.CaptureRouter}. Each source lives in its own module ({@code
 * fetchers/mysql}, ...), so a relay for one source does not carry another's drivers. For snapshots
 * (docs/bootstrap.md) a provider also opens a {@link io.changegrid.fetchers.SnapshotReader}: a
 * read-only watermark and key-range chunk reads, the statement written once by {@link
 * io.changegrid.fetchers.KeyRangeQuery}.
 */
package io.changegrid.fetchers;
