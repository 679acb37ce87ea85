/**
 * The workload generator for a grid in a box, used by bench, the quickstart and the tests:
 * realistic random rows (words, codes, skewed numbers, dates; not sequential filler) in {@link
 * io.changegrid.gridkit.load.WorkloadTables}, written as transactions of inserts, updates and
 * deletes ({@link io.changegrid.gridkit.load.LoadShape}) by {@link
 * io.changegrid.gridkit.load.LoadGenerator}, either as fast as the source takes them or at a steady
 * rate on a {@link io.changegrid.gridkit.load.PacedLoad}, which also runs transactions a caller
 * writes itself.
 */
package io.changegrid.gridkit.load;
