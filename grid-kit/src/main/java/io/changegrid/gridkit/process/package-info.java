/**
 * Child JVMs on this JVM's class path ({@link io.changegrid.gridkit.process.JavaProcess}): how the
 * quickstart, the local cluster, bench and the tests start a relay, a consumer, an applier or a
 * private server in a process of its own, and stop or kill it.
 */
package io.changegrid.gridkit.process;
