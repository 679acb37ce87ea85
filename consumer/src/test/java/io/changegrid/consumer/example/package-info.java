/**
 * A complete user callback, compiled and tested with the consumer: {@link
 * io.changegrid.consumer.example.OrderTotalsCallback}. Deploy's integration tests also run it
 * against a real relay.
 */
package io.changegrid.consumer.example;
