/**
 * The one ZooKeeper client of changegrid's own code: a session per process that survives expiry,
 * used by a relay to keep its registration and by a consumer group for its checkpoints and relay
 * discovery. Helix keeps sessions of its own. ZooKeeper is an optional dependency of the protocol
 * module: modules using this package declare it.
 */
package io.changegrid.protocol.zookeeper;
