package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.it.TableContents.Spec;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.appliers.schema.RelaySchemas;
import io.changegrid.appliers.schema.SchemaChangeMode;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Source schema changes reach target tables before the first row that needs them (columns added,
 * renamed, retyped, dropped), into PostgreSQL and MariaDB, or are refused by configuration with the
 * table and column named.
 */
class SchemaChangeIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();
    @RegisterExtension static final MariaDbExtension MARIADB_TARGET = new MariaDbExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @TempDir static Path relayState;

    private static Relay relay;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void startRelay() throws Exception {
        relay = Pipeline.startRelay(SOURCE.server(), relayState, 9_802);
    }

    @AfterAll
    static void stopRelay() {
        if (relay != null) {
            relay.close();
        }
    }

    @AfterEach
    void close() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
    }

    private Consumer start(Target target, String database, SchemaChangeMode mode) throws Exception {
        JdbcApplier applier =
                JdbcApplier.open(
                        ApplierOptions.builder(target.url())
                                .credentials(target.user(), target.password())
                                .consumerGroup(database)
                                .schemaChanges(mode)
                                .build());
        closing.add(applier);
        Consumer consumer =
                Pipeline.consume(relay, database, applier, applier.checkpointStore(), 5);
        closing.add(consumer);
        return consumer;
    }

    private static List<String> columns(Target target, String database, String table)
            throws SQLException {
        List<String> columns = new ArrayList<>();
        try (Connection connection = target.connect();
                PreparedStatement select =
                        connection.prepareStatement(
                                "SELECT column_name, data_type FROM information_schema.columns WHERE"
                                        + " table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            select.setString(1, database);
            select.setString(2, table);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1) + " " + rows.getString(2));
                }
            }
        }
        return columns;
    }

    /** PostgreSQL's data type, or MariaDB's full column type as declared. */
    private static String columnType(Target target, String database, String table, String column)
            throws SQLException {
        try (Connection connection = target.connect();
                PreparedStatement select =
                        connection.prepareStatement(
                                "SELECT "
                                        + (target.postgres() ? "data_type" : "column_type")
                                        + " FROM information_schema.columns WHERE table_schema = ?"
                                        + " AND table_name = ? AND column_name = ?")) {
            select.setString(1, database);
            select.setString(2, table);
            select.setString(3, column);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private void shouldFollowColumnChanges(Target target, String database) throws Exception {
        SOURCE.server()
                .execute(
                        "CREATE DATABASE " + database,
                        "CREATE TABLE "
                                + database
                                + ".t (id INT PRIMARY KEY, a VARCHAR(20), b INT, v INT)",
                        "INSERT INTO " + database + ".t VALUES (1, 'a1', 10, 100)");
        Consumer consumer = start(target, database, SchemaChangeMode.APPLY);
        SOURCE.server()
                .execute(
                        "ALTER TABLE " + database + ".t ADD COLUMN c VARCHAR(10)",
                        "INSERT INTO " + database + ".t VALUES (2, 'a2', 20, 200, 'c2')",
                        "ALTER TABLE " + database + ".t RENAME COLUMN a TO a_renamed",
                        "UPDATE " + database + ".t SET a_renamed = 'A1' WHERE id = 1",
                        "ALTER TABLE " + database + ".t MODIFY COLUMN v BIGINT",
                        "INSERT INTO " + database + ".t VALUES (3, 'a3', 30, 30000000000, 'c3')",
                        "ALTER TABLE " + database + ".t DROP COLUMN b",
                        "INSERT INTO " + database + ".t VALUES (4, 'a4', 40000000000, 'c4')");
        List<Spec> specs =
                List.of(
                        Spec.of("id", Canon.TEXT),
                        Spec.of("a_renamed", Canon.TEXT),
                        Spec.of("v", Canon.TEXT),
                        Spec.of("c", Canon.TEXT));
        List<String> expected;
        try (Connection connection = SOURCE.server().connect()) {
            expected = TableContents.rows(connection, database + ".t", specs, false);
        }
        Pipeline.awaitUntil(
                consumer,
                () -> {
                    try (Connection connection = target.connect()) {
                        return TableContents.rows(
                                        connection,
                                        target.table(database, "t"),
                                        specs,
                                        target.postgres())
                                .equals(expected);
                    } catch (SQLException e) {
                        return false;
                    }
                },
                Duration.ofSeconds(30));
        assertThat(expected)
                .containsExactly(
                        "id=1 | a_renamed=A1 | v=100 | c=NULL",
                        "id=2 | a_renamed=a2 | v=200 | c=c2",
                        "id=3 | a_renamed=a3 | v=30000000000 | c=c3",
                        "id=4 | a_renamed=a4 | v=40000000000 | c=c4");
        assertThat(columns(target, database, "t"))
                .extracting(c -> c.split(" ")[0])
                .containsExactly("id", "a_renamed", "v", "c");
        // The retyped column has the source's new type: PostgreSQL's mapping of BIGINT, and on
        // MariaDB the source's own declaration (COLUMN_TYPE, display width included).
        assertThat(columnType(target, database, "t", "v"))
                .isEqualTo(target.postgres() ? "bigint" : "bigint(20)");
    }

    @Test
    void shouldServeTheNewestSchemaOfEachSubscribedTableWhenTheApplierChecksAtStart()
            throws Exception {
        SOURCE.server()
                .execute(
                        "CREATE DATABASE ddl_start",
                        "CREATE DATABASE ddl_other",
                        "CREATE TABLE ddl_start.t (id INT PRIMARY KEY, a INT)",
                        "CREATE TABLE ddl_other.t (id INT PRIMARY KEY)",
                        "INSERT INTO ddl_start.t VALUES (1, 1)",
                        "INSERT INTO ddl_other.t VALUES (1)",
                        "ALTER TABLE ddl_start.t ADD COLUMN b VARCHAR(10)",
                        "INSERT INTO ddl_start.t VALUES (2, 2, 'b')");
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                RelaySchemas.fetch(
                                                List.of(URI.create(Pipeline.url(relay))),
                                                List.of("ddl_start.*"),
                                                Duration.ofSeconds(5))
                                        .orElseThrow()
                                        .stream()
                                        .anyMatch(schema -> schema.indexOf("b") >= 0));
        List<TableSchema> known =
                RelaySchemas.fetch(
                                List.of(URI.create(Pipeline.url(relay))),
                                List.of("ddl_start.*"),
                                Duration.ofSeconds(5))
                        .orElseThrow();
        assertThat(known).extracting(TableSchema::qualifiedName).containsExactly("ddl_start.t");
        assertThat(known.get(0).columns())
                .extracting(c -> c.name())
                .containsExactly("id", "a", "b");
        assertThat(
                        RelaySchemas.fetch(
                                List.of(URI.create("http://127.0.0.1:1/")),
                                List.of(),
                                Duration.ofSeconds(1)))
                .as("no relay answers")
                .isEmpty();
    }

    @Test
    void shouldAlterThePostgresTableBeforeTheRowsThatNeedItWhenColumnsChange() throws Exception {
        shouldFollowColumnChanges(Target.of(POSTGRES.database()), "ddl_pg");
    }

    @Test
    void shouldAlterTheMariaDbTableBeforeTheRowsThatNeedItWhenColumnsChange() throws Exception {
        shouldFollowColumnChanges(Target.of(MARIADB_TARGET.server()), "ddl_maria");
    }

    @Test
    void shouldStopNamingTableAndColumnWhenSchemaChangesAreRefused() throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE ddl_refuse",
                        "CREATE TABLE ddl_refuse.t (id INT PRIMARY KEY, a INT)",
                        "INSERT INTO ddl_refuse.t VALUES (1, 1)");
        Consumer consumer = start(target, "ddl_refuse", SchemaChangeMode.REFUSE);
        Pipeline.awaitUntil(
                consumer,
                () -> {
                    try {
                        return target.count("SELECT count(*) FROM ddl_refuse.t") == 1;
                    } catch (SQLException e) {
                        return false;
                    }
                },
                Duration.ofSeconds(30));
        SOURCE.server()
                .execute(
                        "ALTER TABLE ddl_refuse.t ADD COLUMN extra INT",
                        "INSERT INTO ddl_refuse.t VALUES (2, 2, 2)");
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> consumer.state() == ConsumerState.FAILED);
        assertThat(consumer.failure().orElseThrow())
                .hasStackTraceContaining(
                        "target table change refused by configuration: table=\"ddl_refuse\".\"t\","
                                + " add column extra (apply.schemaChanges=refuse)");
        assertThat(target.count("SELECT count(*) FROM ddl_refuse.t")).isEqualTo(1);
    }

    @Test
    void shouldEmptyTheTargetTableWhenTheSourceTableIsTruncatedAndKeepItWhenDropped()
            throws Exception {
        Target target = Target.of(POSTGRES.database());
        SOURCE.server()
                .execute(
                        "CREATE DATABASE ddl_trunc",
                        "CREATE TABLE ddl_trunc.t (id INT PRIMARY KEY, a INT)",
                        "CREATE TABLE ddl_trunc.gone (id INT PRIMARY KEY)",
                        "INSERT INTO ddl_trunc.t VALUES (1, 1), (2, 2), (3, 3)",
                        "INSERT INTO ddl_trunc.gone VALUES (1)",
                        "TRUNCATE TABLE ddl_trunc.t",
                        "INSERT INTO ddl_trunc.t VALUES (4, 4)",
                        "DROP TABLE ddl_trunc.gone",
                        "CREATE TABLE ddl_trunc.marker (id INT PRIMARY KEY)",
                        "INSERT INTO ddl_trunc.marker VALUES (1)");
        Consumer consumer = start(target, "ddl_trunc", SchemaChangeMode.APPLY);
        Pipeline.awaitUntil(
                consumer,
                () -> {
                    try {
                        return target.count("SELECT count(*) FROM ddl_trunc.marker") == 1;
                    } catch (SQLException e) {
                        return false;
                    }
                },
                Duration.ofSeconds(30));
        assertThat(target.count("SELECT count(*) FROM ddl_trunc.t")).isEqualTo(1);
        assertThat(target.count("SELECT sum(id) FROM ddl_trunc.t")).isEqualTo(4);
        assertThat(target.count("SELECT count(*) FROM ddl_trunc.gone")).isEqualTo(1);
    }
}
