package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.changegrid.appliers.dialect.Dialect;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each class of target error raised by a real server, in a session the applier's dialect prepared,
 * and how that dialect classifies it: transient ones (a lock wait timeout, a killed session) are
 * retried, permanent ones (a value out of range or truncated, a duplicate key) stop the applier.
 */
class TargetErrorsIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static Target postgres() {
        return Target.of(POSTGRES.database());
    }

    private static Target mariadb() {
        return Target.of(MARIADB.server());
    }

    /** A connection prepared as the applier prepares its own. */
    private static Connection session(Target target) throws SQLException {
        Connection connection = target.connect();
        Dialect.of(target.url()).prepareSession(connection);
        return connection;
    }

    private static SQLException failure(Target target, String... sql) throws SQLException {
        try (Connection connection = session(target);
                Statement statement = connection.createStatement()) {
            return catchThrowableOfType(
                    SQLException.class,
                    () -> {
                        for (String each : sql) {
                            statement.execute(each);
                        }
                    });
        }
    }

    private static boolean isTransient(Target target, SQLException error) {
        assertThat((Throwable) error).as("the server raised an error").isNotNull();
        return Dialect.of(target.url()).isTransient(error);
    }

    @Test
    void shouldStopWhenMariaDbTruncatesAnEnumValueOrFindsOneOutOfRangeOrADuplicateKey()
            throws Exception {
        Target target = mariadb();
        target.execute(
                "CREATE DATABASE permanent",
                "CREATE TABLE permanent.t (id INT PRIMARY KEY, e ENUM('a','b'), f FLOAT)",
                "INSERT INTO permanent.t VALUES (1, 'a', 0)");
        SQLException truncated = failure(target, "INSERT INTO permanent.t VALUES (2, '', 0)");
        assertThat(truncated.getErrorCode()).isEqualTo(1265);
        assertThat(isTransient(target, truncated)).isFalse();
        SQLException range = failure(target, "UPDATE permanent.t SET f = 3.5e38 WHERE id = 1");
        assertThat(range.getErrorCode()).isEqualTo(1264);
        assertThat(isTransient(target, range)).isFalse();
        SQLException duplicate = failure(target, "INSERT INTO permanent.t VALUES (1, 'b', 0)");
        assertThat(duplicate.getErrorCode()).isEqualTo(1062);
        assertThat(isTransient(target, duplicate)).isFalse();
    }

    @Test
    void shouldRetryWhenAMariaDbLockWaitTimesOutOrTheSessionIsKilled() throws Exception {
        Target target = mariadb();
        target.execute(
                "CREATE DATABASE transient",
                "CREATE TABLE transient.t (id INT PRIMARY KEY, v INT)",
                "INSERT INTO transient.t VALUES (1, 0)");
        try (Connection holder = session(target);
                Statement hold = holder.createStatement()) {
            holder.setAutoCommit(false);
            hold.execute("UPDATE transient.t SET v = 1 WHERE id = 1");
            SQLException timeout =
                    failure(
                            target,
                            "SET SESSION innodb_lock_wait_timeout = 1",
                            "UPDATE transient.t SET v = 2 WHERE id = 1");
            assertThat(timeout.getErrorCode()).isEqualTo(1205);
            assertThat(isTransient(target, timeout)).isTrue();
            holder.rollback();
        }
        try (Connection victim = session(target);
                Statement statement = victim.createStatement()) {
            long id;
            try (var rows = statement.executeQuery("SELECT CONNECTION_ID()")) {
                rows.next();
                id = rows.getLong(1);
            }
            target.execute("KILL CONNECTION " + id);
            SQLException killed =
                    catchThrowableOfType(SQLException.class, () -> statement.execute("SELECT 1"));
            assertThat(isTransient(target, killed)).as(killed.toString()).isTrue();
        }
    }

    @Test
    void shouldStopWhenPostgresFindsAValueOutOfRangeOrInvalidOrADuplicateKey() throws Exception {
        Target target = postgres();
        target.execute(
                "CREATE SCHEMA permanent",
                "CREATE TABLE permanent.t (id integer PRIMARY KEY, r real)",
                "INSERT INTO permanent.t VALUES (1, 0)");
        SQLException range = failure(target, "UPDATE permanent.t SET r = 1e39 WHERE id = 1");
        assertThat(range.getSQLState()).isEqualTo("22003");
        assertThat(isTransient(target, range)).isFalse();
        SQLException invalid = failure(target, "INSERT INTO permanent.t VALUES (2, 'x')");
        assertThat(invalid.getSQLState()).isEqualTo("22P02");
        assertThat(isTransient(target, invalid)).isFalse();
        SQLException duplicate = failure(target, "INSERT INTO permanent.t VALUES (1, 0)");
        assertThat(duplicate.getSQLState()).isEqualTo("23505");
        assertThat(isTransient(target, duplicate)).isFalse();
    }

    @Test
    void shouldRetryWhenAPostgresLockTimesOutOrTheSessionIsTerminated() throws Exception {
        Target target = postgres();
        target.execute(
                "CREATE SCHEMA transient",
                "CREATE TABLE transient.t (id integer PRIMARY KEY, v integer)",
                "INSERT INTO transient.t VALUES (1, 0)");
        try (Connection holder = session(target);
                Statement hold = holder.createStatement()) {
            holder.setAutoCommit(false);
            hold.execute("UPDATE transient.t SET v = 1 WHERE id = 1");
            SQLException timeout =
                    failure(
                            target,
                            "SET lock_timeout = '200ms'",
                            "UPDATE transient.t SET v = 2 WHERE id = 1");
            assertThat(timeout.getSQLState()).isEqualTo("55P03");
            assertThat(isTransient(target, timeout)).isTrue();
            holder.rollback();
        }
        try (Connection victim = session(target);
                Statement statement = victim.createStatement()) {
            long pid;
            try (var rows = statement.executeQuery("SELECT pg_backend_pid()")) {
                rows.next();
                pid = rows.getLong(1);
            }
            target.execute("SELECT pg_terminate_backend(" + pid + ")");
            SQLException terminated =
                    catchThrowableOfType(SQLException.class, () -> statement.execute("SELECT 1"));
            assertThat(isTransient(target, terminated)).as(terminated.toString()).isTrue();
        }
    }
}
