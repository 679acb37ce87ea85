/**
 * The relay buffer's sizing claim, measured ({@code bench buffer-capacity}); the buffer's JMH
 * benchmarks are in module bench-jmh.
 */
package io.changegrid.bench.buffer;
