/** The whitepaper's stage 2: a preloaded relay to 1..n consumer processes splitting its stream. */
package io.changegrid.bench.stage2;
