/**
 * The embeddable consumer ({@link io.changegrid.consumer.Consumer}): a puller thread long-polling
 * relays into a bounded consumer buffer, and a dispatcher thread handing whole transactions to a
 * callback and checkpointing them. The library knows no consumer group: the consumer-group module
 * runs one of these per owned partition, and holds the command line ({@code ConsumerMain}).
 */
package io.changegrid.consumer;
