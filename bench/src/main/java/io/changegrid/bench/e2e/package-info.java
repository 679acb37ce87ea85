/** The whitepaper's end-to-end run: binlog to relay to consumer callback, separate processes. */
package io.changegrid.bench.e2e;
