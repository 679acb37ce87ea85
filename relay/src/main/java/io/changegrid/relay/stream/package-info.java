/**
 * {@code /v1/stream}: long-polled whole transactions from the event buffer, binary frames as they
 * are or JSON lines, filtered per subscription on frame headers.
 */
package io.changegrid.relay.stream;
