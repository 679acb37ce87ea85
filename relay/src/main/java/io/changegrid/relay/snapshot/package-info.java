/**
 * Snapshots in the stream (docs/bootstrap.md): a chunk of a source table read between two
 * watermarks ({@link io.changegrid.relay.snapshot.ChunkSource}), the keys the consumer's
 * undelivered window touched ({@link io.changegrid.relay.snapshot.TouchedKeys}), and the surviving
 * rows encoded as flagged frames ({@link io.changegrid.relay.snapshot.ChunkFrames}). Serving them
 * is {@code io.changegrid.relay.stream.SnapshotExchange}; the live path does not pass through here.
 */
package io.changegrid.relay.snapshot;
