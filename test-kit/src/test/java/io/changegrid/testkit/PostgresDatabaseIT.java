package io.changegrid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.PostgresAddress;
import io.changegrid.gridkit.server.PostgresDatabase;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresDatabaseIT {

    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    @Test
    void shouldReadRowBackWhenRowIsInserted() throws SQLException {
        var database = POSTGRES.database();
        database.execute(
                "CREATE TABLE offsets (consumer TEXT PRIMARY KEY, scn BIGINT NOT NULL)",
                "INSERT INTO offsets VALUES ('search-indexer', 42)");

        try (var connection = database.connect();
                var statement = connection.createStatement();
                var result = statement.executeQuery("SELECT consumer, scn FROM offsets")) {
            assertThat(result.next()).isTrue();
            assertThat(result.getString("consumer")).isEqualTo("search-indexer");
            assertThat(result.getLong("scn")).isEqualTo(42);
            assertThat(result.next()).isFalse();
        }
    }

    @Test
    void shouldDropDatabaseWhenClosedEvenWithSessionsOpen() throws SQLException {
        var database = PostgresDatabase.create();
        assertThat(database.name()).matches("changegrid_test_[0-9a-f]{12}");
        var forgotten = database.connect(); // a leaked connection must not block the drop
        try {
            assertThat(exists(database.name())).isTrue();

            database.close();

            assertThat(exists(database.name())).isFalse();
            assertThat(forgotten.isValid(2)).isFalse();
        } finally {
            forgotten.close();
        }
    }

    private static boolean exists(String name) throws SQLException {
        var address = PostgresAddress.fromEnvironment();
        try (var connection =
                        DriverManager.getConnection(
                                address.jdbcUrl(PostgresAddress.MAINTENANCE_DATABASE),
                                address.user(),
                                address.password());
                var statement =
                        connection.prepareStatement(
                                "SELECT 1 FROM pg_database WHERE datname = ?")) {
            statement.setString(1, name);
            try (var result = statement.executeQuery()) {
                return result.next();
            }
        }
    }
}
