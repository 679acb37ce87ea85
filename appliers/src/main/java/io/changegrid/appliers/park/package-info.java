/**
 * Parking ({@code apply.refusedRows=park}): a source table whose change the target refuses for good
 * is parked instead of stopping the applier. Its changes from then on are recorded, in source
 * order, in a dead-letter table in the target ({@link
 * io.changegrid.appliers.checkpoint.DeadLetterTable}) in the same transaction as the lane
 * checkpoint that moves past them ({@link io.changegrid.appliers.park.ParkedChanges}), while the
 * other tables keep flowing; when an operator asks, they are replayed in order and deleted in the
 * transactions that apply them, and the table is unparked ({@link
 * io.changegrid.appliers.park.TableResume}).
 */
package io.changegrid.appliers.park;
