/**
 * The whitepaper's stage 1: binlog to relay event buffer, with a bare BinaryLogClient as the
 * ceiling.
 */
package io.changegrid.bench.stage1;
