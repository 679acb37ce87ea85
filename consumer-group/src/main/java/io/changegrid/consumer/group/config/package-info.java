/**
 * A group member's settings: the {@code cluster.*} keys defined once ({@link
 * io.changegrid.consumer.group.config.GroupSettings}) and validated into {@link
 * io.changegrid.consumer.group.config.GroupConfig}.
 */
package io.changegrid.consumer.group.config;
