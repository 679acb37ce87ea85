/**
 * The whitepaper's end-to-end run: binlog to relays to consumer callbacks, every component its own
 * process.
 */
package io.changegrid.bench.e2e;
