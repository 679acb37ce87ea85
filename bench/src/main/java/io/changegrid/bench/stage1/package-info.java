/**
 * The whitepaper's stage 1: binlog to relay event buffer, 1..n relays splitting the source, with a
 * bare BinaryLogClient as the ceiling and an optional policy chain.
 */
package io.changegrid.bench.stage1;
