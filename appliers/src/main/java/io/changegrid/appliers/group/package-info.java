/**
 * The JDBC applier in a consumer group: one applier per owned partition, fenced by the partition's
 * ownership epoch, resuming from the target's checkpoint rows.
 */
package io.changegrid.appliers.group;
