/**
 * JUnit extensions on grid-kit's private servers ({@link io.changegrid.gridkit.server}), each
 * server private to one test class and removed afterwards; and MySQL 8 through Testcontainers.
 *
 * <ul>
 *   <li>{@link io.changegrid.testkit.MariaDbExtension}: a private {@code mariadbd} ({@link
 *       io.changegrid.gridkit.server.MariaDbServer}).
 *   <li>{@link io.changegrid.testkit.MySqlContainerSource}: MySQL 8 through Testcontainers; skipped
 *       (JUnit assumption) where no Docker engine is reachable.
 *   <li>{@link io.changegrid.testkit.SourceDatabaseExtension}: a {@link
 *       io.changegrid.gridkit.server.SourceDatabase}, either of the two, picked by {@link
 *       io.changegrid.testkit.SourceChoice}.
 *   <li>{@link io.changegrid.testkit.EmbeddedZooKeeperExtension}: an in-process ZooKeeper.
 *   <li>{@link io.changegrid.testkit.PostgresDatabaseExtension}: a fresh database on the local
 *       PostgreSQL.
 * </ul>
 *
 * <p>Test scope only: JUnit and Testcontainers live here so that no runnable jar ships them.
 *
 * <p>An extension instance serves one test class at a time: one registered on a static field of a
 * shared base class must not serve subclasses that run in parallel (Maven runs classes one after
 * another unless told otherwise).
 */
package io.changegrid.testkit;
