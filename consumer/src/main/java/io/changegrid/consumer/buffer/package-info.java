/**
 * The consumer buffer ({@link io.changegrid.consumer.buffer.ConsumerBuffer}) between the puller and
 * the dispatcher: whole-transaction relay responses copied once into a bounded ring of bytes, freed
 * only after the callback processed and checkpointed them.
 */
package io.changegrid.consumer.buffer;
