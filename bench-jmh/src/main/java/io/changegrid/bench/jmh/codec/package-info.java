/** JMH benchmarks of the event codec: frame encode, header read, frame check and full decode. */
package io.changegrid.bench.jmh.codec;
