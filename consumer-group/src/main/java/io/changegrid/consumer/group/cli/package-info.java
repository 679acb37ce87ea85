/** Operator commands of {@code ConsumerMain}: {@code consumer cluster status}. */
package io.changegrid.consumer.group.cli;
