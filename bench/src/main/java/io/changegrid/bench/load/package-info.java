/**
 * The bench's use of grid-kit's workload generator ({@code io.changegrid.gridkit.load}): the load's
 * options on the command line, table names that split evenly into the run's partitions, and the
 * binlog range a preload occupies.
 */
package io.changegrid.bench.load;
