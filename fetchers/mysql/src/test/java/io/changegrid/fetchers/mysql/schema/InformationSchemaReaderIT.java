package io.changegrid.fetchers.mysql.schema;

import static io.changegrid.events.value.ValueType.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.testkit.MariaDbExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class InformationSchemaReaderIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private final InformationSchemaReader reader = new InformationSchemaReader();

    @BeforeAll
    static void createSchema() throws SQLException {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE DATABASE legacy CHARACTER SET latin1",
                        "CREATE TABLE shop.orders (id BIGINT UNSIGNED NOT NULL, line INT NOT NULL,"
                                + " total DECIMAL(12,2), flags BIT(5), note VARCHAR(20) CHARSET latin1,"
                                + " size ENUM('s','m','l') NOT NULL, at DATETIME(6), doc JSON,"
                                + " PRIMARY KEY (line, id))",
                        "CREATE TABLE shop.uca (a VARCHAR(3)) COLLATE utf8mb4_uca1400_ai_ci",
                        "CREATE TABLE legacy.t (a TEXT, b BLOB)",
                        "CREATE VIEW shop.totals AS SELECT SUM(total) AS s FROM shop.orders",
                        "CREATE SEQUENCE shop.ids",
                        "CREATE TABLE mysql.not_ours (a INT)");
    }

    @Test
    void shouldReadTheServerSettingsWhenConnected() throws SQLException {
        ServerDialect dialect;
        try (Connection connection = replicationUser()) {
            dialect = reader.readDialect(connection);
        }

        assertThat(dialect.flavor()).isEqualTo(ServerDialect.Flavor.MARIADB);
        assertThat(dialect.version()).isGreaterThanOrEqualTo(100600);
        assertThat(dialect.serverCharset()).isEqualTo("utf8mb4");
        assertThat(dialect.utf8Charset()).isEqualTo("utf8mb3");
        assertThat(dialect.explicitDefaultsForTimestamp()).isTrue();
        assertThat(dialect.lowerCaseTableNames()).isFalse();
    }

    @Test
    void shouldReadEveryUserTableWhenTheReplicationUserAsks() throws SQLException {
        SchemaSnapshot snapshot;
        try (Connection connection = replicationUser()) {
            snapshot = reader.read(connection);
        }

        assertThat(snapshot.databases())
                .containsExactly(
                        new DatabaseDefinition("legacy", "latin1"),
                        new DatabaseDefinition("shop", "utf8mb4"));
        assertThat(snapshot.views()).containsExactly(new TableName("shop", "totals"));
        assertThat(snapshot.tables())
                .extracting(TableDefinition::name)
                .containsExactly(
                        new TableName("legacy", "t"),
                        new TableName("shop", "ids"),
                        new TableName("shop", "orders"),
                        new TableName("shop", "uca"));
        TableDefinition orders = snapshot.tables().get(2);
        assertThat(orders.columns())
                .containsExactly(
                        new Column("id", UINT64, "bigint(20) unsigned", false, 0),
                        new Column("line", INT64, "int(11)", false, 0),
                        new Column("total", DECIMAL, "decimal(12,2)", true, 0),
                        new Column("flags", BITS, "bit(5)", true, 5),
                        new Column("note", STRING, "varchar(20) character set latin1", true, 0),
                        new Column(
                                "size",
                                STRING,
                                "enum('s','m','l') character set utf8mb4",
                                false,
                                0),
                        new Column("at", DATETIME, "datetime(6)", true, 0),
                        new Column("doc", STRING, "longtext character set utf8mb4", true, 0));
        assertThat(orders.keyColumns()).containsExactly("line", "id");
        assertThat(orders.charset()).isEqualTo("utf8mb4");
        assertThat(snapshot.tables().get(0).charset()).isEqualTo("latin1");
        assertThat(snapshot.tables().get(0).columns())
                .extracting(Column::sourceType)
                .containsExactly("text character set latin1", "blob");
        assertThat(snapshot.tables().get(1).columns()).hasSize(8).allMatch(c -> !c.nullable());
        assertThat(snapshot.tables().get(3).charset()).isEqualTo("utf8mb4");
    }

    @Test
    void shouldRegisterTablesInNameOrderWhenATrackerStartsFromTheSnapshot() throws SQLException {
        SchemaRegistry registry = new SchemaRegistry();
        try (Connection connection = replicationUser()) {
            SchemaTracker.fromSnapshot(reader.read(connection), registry);
        }

        assertThat(registry.allVersions())
                .extracting(TableSchema::tableId, TableSchema::qualifiedName)
                .containsExactly(
                        tuple(1, "legacy.t"),
                        tuple(2, "shop.ids"),
                        tuple(3, "shop.orders"),
                        tuple(4, "shop.uca"));
        assertThat(registry.latest("shop", "orders").orElseThrow().keyColumns())
                .isEqualTo(List.of("line", "id"));
    }

    private static Connection replicationUser() throws SQLException {
        return DriverManager.getConnection(
                MARIADB.server().jdbcUrl(), MARIADB.server().user(), MARIADB.server().password());
    }
}
