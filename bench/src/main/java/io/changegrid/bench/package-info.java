/**
 * The benchmark harness's entry point ({@link io.changegrid.bench.BenchMain}): the whitepaper's
 * stage-1, stage-2, end-to-end and latency runs, apply, consumer group and buffer-capacity runs,
 * scaling sets and the report, each a {@code BenchMain} command. JMH benchmarks are module
 * bench-jmh.
 */
package io.changegrid.bench;
