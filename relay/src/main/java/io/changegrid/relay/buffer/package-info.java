/**
 * The relay's event buffer: whole source transactions of serialized frames, held off-heap in one
 * circular log over fixed-size segments, appended by the publisher and read concurrently by many
 * HTTP reader threads.
 *
 * <ul>
 *   <li>{@link io.changegrid.relay.buffer.EventBuffer} is the log and its single writer's {@code
 *       append}; its layout is described once in {@link
 *       io.changegrid.relay.buffer.EventBufferLayout}.
 *   <li>{@link io.changegrid.relay.buffer.EventBufferReader} is a per-reader cursor that copies
 *       whole transactions after a checkpoint SCN, lock-free, validating optimistically that
 *       nothing it copied was evicted meanwhile, or pins them for sending in place; {@link
 *       io.changegrid.relay.buffer.SegmentPins} lets the writer evict a pinned segment without
 *       waiting, by swapping a spare into the log.
 *   <li>{@link io.changegrid.relay.buffer.EventBufferConfig} and {@link
 *       io.changegrid.relay.buffer.SegmentStorage} say how large the log is and where its memory
 *       comes from (direct buffers, or unlinked memory-mapped files).
 *   <li>{@link io.changegrid.relay.buffer.AppendListener} tells waiting readers that data arrived.
 *   <li>{@link io.changegrid.relay.buffer.SegmentFiles} keeps a buffer's segments in files that
 *       outlive the process, each tied to source positions ({@link
 *       io.changegrid.relay.buffer.SegmentPositions}, laid out as {@link
 *       io.changegrid.relay.buffer.SegmentFileLayout} describes), and {@link
 *       io.changegrid.relay.buffer.BufferRecovery} rebuilds the buffer from them at restart.
 * </ul>
 */
package io.changegrid.relay.buffer;
