/**
 * Source workloads for a grid in a box: {@link io.changegrid.gridkit.load.PacedLoad} runs the
 * transactions a caller describes at a steady rate, for the quickstart's shop and the tests' loads.
 */
package io.changegrid.gridkit.load;
