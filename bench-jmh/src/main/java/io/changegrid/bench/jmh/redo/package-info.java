/** The LogMiner fetcher's per-row cost: parsing {@code SQL_REDO} and typing its values. */
package io.changegrid.bench.jmh.redo;
