/**
 * Private servers for a grid in a box, each owned by whoever starts it and removed afterwards: the
 * quickstart, the local cluster, bench and (through test-kit's JUnit extensions) the tests.
 *
 * <ul>
 *   <li>{@link io.changegrid.gridkit.server.MariaDbServer}: a private {@code mariadbd} with a
 *       ROW/FULL binlog and a replication user, started from the installed MariaDB server.
 *   <li>{@link io.changegrid.gridkit.server.SourceDatabase}: what a CDC client needs from a
 *       MySQL-family source.
 *   <li>{@link io.changegrid.gridkit.server.EmbeddedZooKeeper}: an in-process ZooKeeper.
 *   <li>{@link io.changegrid.gridkit.server.PostgresDatabase}: a fresh database on the local
 *       PostgreSQL.
 * </ul>
 *
 * <p>Every server is {@link java.lang.AutoCloseable}; {@code close()} is idempotent and removes all
 * it created, even after a start that failed halfway. Servers still open when the JVM exits are
 * closed by one shutdown hook, and scratch directories (with any {@code mariadbd}) left by a JVM
 * that was killed are removed by the next start. Servers are safe to close from any thread.
 *
 * <p>No test library here (JUnit, AssertJ, Testcontainers, Awaitility): runnable jars ship this
 * package; the architecture tests hold it so.
 */
package io.changegrid.gridkit.server;
