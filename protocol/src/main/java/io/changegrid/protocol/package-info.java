/**
 * The contract between relays and their clients, written once: the relay registration in ZooKeeper
 * and the rule by which consumer groups choose relays from it ({@link
 * io.changegrid.protocol.RelayRegistration}), the HTTP API's paths, stream parameters and headers
 * ({@link io.changegrid.protocol.RelayApi}, {@link io.changegrid.protocol.StreamParameters}, {@link
 * io.changegrid.protocol.StreamResponse}), and the one {@code database.table} pattern matcher with
 * its case rule ({@link io.changegrid.protocol.TableGlob}). Relays, consumers, appliers and the
 * benchmark all depend on this; it depends on nothing of ours.
 */
package io.changegrid.protocol;
