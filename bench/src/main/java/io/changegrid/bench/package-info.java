/**
 * The benchmark harness's entry point ({@link io.changegrid.bench.BenchMain}): the whitepaper's
 * stage-1, stage-2, end-to-end and latency runs, scaling sets and the report; JMH benchmarks live
 * in the sub-packages next to the runs.
 */
package io.changegrid.bench;
