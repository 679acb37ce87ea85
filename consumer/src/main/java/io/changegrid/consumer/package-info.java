/**
 * The embeddable consumer ({@link io.changegrid.consumer.Consumer}) and its command-line entry
 * point ({@link io.changegrid.consumer.ConsumerMain}): a puller thread long-polling relays into a
 * bounded consumer event buffer, and a dispatcher thread handing whole transactions to a callback
 * and checkpointing them.
 */
package io.changegrid.consumer;
