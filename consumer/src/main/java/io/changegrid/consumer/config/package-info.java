/**
 * A consumer's settings, defined once as data ({@link
 * io.changegrid.consumer.config.ConsumerSettings}) and validated at start into the immutable {@link
 * io.changegrid.consumer.config.ConsumerConfig}, whether they come from a YAML file or from {@code
 * Consumer.builder()}.
 */
package io.changegrid.consumer.config;
