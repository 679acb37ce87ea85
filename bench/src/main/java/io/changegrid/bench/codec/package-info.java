/**
 * The whitepaper's row shape ({@link io.changegrid.bench.codec.WhitepaperRows}): three tables of
 * ~1,100-byte rows, shared by the buffer-capacity run and the JMH benchmarks (module bench-jmh).
 */
package io.changegrid.bench.codec;
