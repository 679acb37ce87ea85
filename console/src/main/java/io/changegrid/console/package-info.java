/**
 * The grid's web console: its own process ({@link io.changegrid.console.ConsoleMain}) that finds
 * relays and consumer groups through ZooKeeper, samples their status and metrics, and serves live
 * pages and the group control operations.
 */
package io.changegrid.console;
