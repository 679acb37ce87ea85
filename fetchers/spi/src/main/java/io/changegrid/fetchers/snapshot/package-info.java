/**
 * What a source offers a snapshot (docs/bootstrap.md): a read-only watermark on the fetcher's SCN
 * scale and short primary-key range reads ({@link io.changegrid.fetchers.snapshot.SnapshotReader}),
 * the chunk statement written once ({@link io.changegrid.fetchers.snapshot.KeyRangeQuery}), and the
 * refusals a snapshot gives, by name.
 */
package io.changegrid.fetchers.snapshot;
