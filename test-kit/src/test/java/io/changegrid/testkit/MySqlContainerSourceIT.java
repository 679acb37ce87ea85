package io.changegrid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.SourceDatabase;
import java.sql.SQLException;
import java.util.HashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs where a Docker engine is reachable; elsewhere every test here is reported as skipped, with
 * the reason, by the assumption in {@link MySqlContainerSource#start()}.
 */
class MySqlContainerSourceIT {

    @RegisterExtension
    static final SourceDatabaseExtension MYSQL = new SourceDatabaseExtension(SourceChoice.MYSQL8);

    @Test
    void shouldRunWithGtidRowBinlogWhenContainerStarts() throws SQLException {
        var values = new HashMap<String, String>();
        try (var connection = MYSQL.source().connect();
                var statement = connection.createStatement();
                var result =
                        statement.executeQuery(
                                "SHOW VARIABLES WHERE Variable_name IN ('log_bin', 'binlog_format',"
                                        + " 'binlog_row_image', 'gtid_mode', 'server_id')")) {
            while (result.next()) {
                values.put(result.getString(1), result.getString(2));
            }
        }

        assertThat(MYSQL.source().flavor()).isEqualTo(SourceDatabase.Flavor.MYSQL);
        assertThat(values)
                .containsEntry("log_bin", "ON")
                .containsEntry("binlog_format", "ROW")
                .containsEntry("binlog_row_image", "FULL")
                .containsEntry("gtid_mode", "ON")
                .containsEntry("server_id", "1");
    }

    @Test
    void shouldLetReplicationUserReadBinlogStatusWhenContainerStarts() throws SQLException {
        var source = MYSQL.source();
        try (var connection =
                        java.sql.DriverManager.getConnection(
                                source.jdbcUrl(), source.user(), source.password());
                var statement = connection.createStatement();
                var status = statement.executeQuery("SHOW MASTER STATUS")) {
            assertThat(status.next()).isTrue();
        }
    }
}
