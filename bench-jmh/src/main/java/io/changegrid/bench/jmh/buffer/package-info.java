/**
 * JMH benchmarks of the relay's event buffer: appending whitepaper-shaped transactions and copying
 * them out to a reader.
 */
package io.changegrid.bench.jmh.buffer;
