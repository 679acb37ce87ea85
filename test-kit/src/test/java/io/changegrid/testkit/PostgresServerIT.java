package io.changegrid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.PostgresServer;
import io.changegrid.gridkit.server.ProcessLiveness;
import java.nio.file.Files;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresServerIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @Test
    void shouldDecodeLogicallyWhenStartedWithDefaults() throws SQLException {
        var server = POSTGRES.server();
        server.createDatabase("shop");
        server.execute(
                "shop",
                "CREATE TABLE orders (id INT PRIMARY KEY, note TEXT)",
                "SELECT pg_create_logical_replication_slot('fixture_slot', 'test_decoding')",
                "INSERT INTO orders VALUES (1, 'first')");
        try (var connection = server.connect("shop");
                var statement = connection.createStatement()) {
            var walLevel = statement.executeQuery("SHOW wal_level");
            walLevel.next();
            assertThat(walLevel.getString(1)).isEqualTo("logical");
            var changes =
                    statement.executeQuery(
                            "SELECT data FROM pg_logical_slot_get_changes('fixture_slot', NULL, NULL)");
            var text = new StringBuilder();
            while (changes.next()) {
                text.append(changes.getString(1)).append('\n');
            }
            assertThat(text.toString()).contains("INSERT: id[integer]:1 note[text]:'first'");
            statement.execute("SELECT pg_drop_replication_slot('fixture_slot')");
        }
    }

    @Test
    void shouldRemoveItsDirectoryAndProcessWhenClosed() throws SQLException {
        var server = PostgresServer.start(Map.of("wal_level", "replica"));
        long pid;
        try (var connection = server.connect("postgres");
                var statement = connection.createStatement()) {
            var walLevel = statement.executeQuery("SHOW wal_level");
            walLevel.next();
            assertThat(walLevel.getString(1)).isEqualTo("replica");
            var backend = statement.executeQuery("SELECT pg_backend_pid()");
            backend.next();
            pid = backend.getLong(1);
        }
        server.close();
        assertThat(ProcessHandle.of(pid).filter(ProcessLiveness::running)).isEmpty();
        assertThat(server.toString()).contains("changegrid-postgres");
        assertThat(Files.exists(java.nio.file.Path.of(server.toString().split(" ")[2]))).isFalse();
    }
}
