/** Latency from source commit to consumer callback at a steady transaction rate. */
package io.changegrid.bench.latency;
