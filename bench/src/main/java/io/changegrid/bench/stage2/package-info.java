/** The whitepaper's stage 2: a preloaded relay to separate consumer processes. */
package io.changegrid.bench.stage2;
