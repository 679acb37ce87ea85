/**
 * What every runnable component (relay, consumer, group member, applier, local ZooKeeper) shares as
 * a service process: how a requested stop ends it.
 */
package io.changegrid.service;
