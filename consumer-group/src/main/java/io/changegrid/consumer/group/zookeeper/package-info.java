/**
 * The consumer's own ZooKeeper client: one session per process that survives expiry, used by the
 * group's checkpoints and by relay discovery. Helix keeps sessions of its own.
 */
package io.changegrid.consumer.group.zookeeper;
