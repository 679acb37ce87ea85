/**
 * The dispatcher: takes whole transactions from the consumer buffer, hands them to the consumer
 * callback in batches through one reused {@link io.changegrid.consumer.api.EventView} flyweight,
 * applies the callback's results (RETRY re-delivers from the last checkpoint, FAIL stops) and
 * checkpoints after every batch.
 */
package io.changegrid.consumer.dispatch;
