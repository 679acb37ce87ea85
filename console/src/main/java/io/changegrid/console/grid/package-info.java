/**
 * The grid as ZooKeeper describes it: the registered relays of every source (read with protocol's
 * {@code RelayRegistration}) and the consumer groups (read with consumer-group's {@code
 * ClusterView}, {@code GroupReport} and {@code GroupControls}). Nothing here parses a node by hand.
 */
package io.changegrid.console.grid;
