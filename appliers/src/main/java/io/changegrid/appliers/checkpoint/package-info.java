/**
 * The consumer's checkpoint kept in the target itself: one row per lane, written in the same target
 * transaction as the rows it covers and conditional on the owner's epoch, so a fenced consumer's
 * late batch is rejected.
 */
package io.changegrid.appliers.checkpoint;
