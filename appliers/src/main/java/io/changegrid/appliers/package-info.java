/**
 * Target appliers: consumer callbacks that replicate a source's tables into a database by primary
 * key, exactly once, with the checkpoint written in the same target transaction as the rows. {@link
 * io.changegrid.appliers.ApplierMain} runs one as a process.
 */
package io.changegrid.appliers;
