package io.changegrid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.SourceDatabase;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SourceDatabaseExtensionIT {

    @RegisterExtension
    static final SourceDatabaseExtension SOURCE = new SourceDatabaseExtension(SourceChoice.MARIADB);

    @Test
    void shouldLetReplicationUserReadBinlogStatusWhenSourceIsMariaDb() throws SQLException {
        var source = SOURCE.source();
        assertThat(source.flavor()).isEqualTo(SourceDatabase.Flavor.MARIADB);

        try (var connection =
                        DriverManager.getConnection(
                                source.jdbcUrl(), source.user(), source.password());
                var statement = connection.createStatement();
                var status = statement.executeQuery("SHOW MASTER STATUS")) {
            assertThat(status.next()).as("binlog status row").isTrue();
            assertThat(status.getString("File")).startsWith("binlog.");
        }
    }

    @Nested
    class WhenNested {
        @Test
        void shouldShareOuterSourceWhenClassIsNested() {
            assertThat(SOURCE.source()).isInstanceOf(MariaDbServer.class);
            assertThat(MariaDbServer.scratchRoot()).isDirectory();
        }
    }
}
