/**
 * Real servers for changegrid tests, each private to one test class and removed afterwards.
 *
 * <ul>
 *   <li>{@link io.changegrid.testkit.MariaDbServer}: a private {@code mariadbd} with a ROW/FULL
 *       binlog and a replication user, started from the installed MariaDB server; JUnit: {@link
 *       io.changegrid.testkit.MariaDbExtension}.
 *   <li>{@link io.changegrid.testkit.MySqlContainerSource}: MySQL 8 through Testcontainers; skipped
 *       (JUnit assumption) where no Docker engine is reachable.
 *   <li>{@link io.changegrid.testkit.SourceDatabase}: what a CDC test needs from either of the two;
 *       {@link io.changegrid.testkit.SourceDatabaseExtension} picks one by {@link
 *       io.changegrid.testkit.SourceChoice}.
 *   <li>{@link io.changegrid.testkit.EmbeddedZooKeeper}: an in-process ZooKeeper; JUnit: {@link
 *       io.changegrid.testkit.EmbeddedZooKeeperExtension}.
 *   <li>{@link io.changegrid.testkit.PostgresDatabase}: a fresh database on the local PostgreSQL;
 *       JUnit: {@link io.changegrid.testkit.PostgresDatabaseExtension}.
 * </ul>
 *
 * <p>Every fixture is {@link java.lang.AutoCloseable}; {@code close()} is idempotent and removes
 * all it created, even after a start that failed halfway. Fixtures still open when the JVM exits
 * are closed by one shutdown hook, and scratch directories (with any {@code mariadbd}) left by a
 * JVM that was killed are removed by the next start. Fixtures are safe to close from any thread.
 *
 * <p>An extension instance serves one test class at a time: one registered on a static field of a
 * shared base class must not serve subclasses that run in parallel (Maven runs classes one after
 * another unless told otherwise).
 */
package io.changegrid.testkit;
