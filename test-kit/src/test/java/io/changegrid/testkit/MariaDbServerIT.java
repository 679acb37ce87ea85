package io.changegrid.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.CompatibilityMode;
import io.changegrid.gridkit.server.FixtureStartException;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbConfig.BinlogFormat;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.SourceDatabase;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbServerIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @Test
    void shouldWriteFullRowBinlogWhenStartedWithDefaults() throws SQLException {
        assertThat(variables(MARIADB.server()))
                .containsEntry("log_bin", "ON")
                .containsEntry("binlog_format", "ROW")
                .containsEntry("binlog_row_image", "FULL")
                .containsEntry("server_id", "1")
                .containsEntry("performance_schema", "OFF");
    }

    @Test
    void shouldStreamInsertedRowWhenReplicationUserReadsBinlog() throws Exception {
        var server = MARIADB.server();
        server.execute(
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id INT PRIMARY KEY, item VARCHAR(40) NOT NULL)");
        var tables = new ConcurrentHashMap<Long, String>();
        var rows = new CopyOnWriteArrayList<Serializable[]>();
        var client = replicationClient(server);
        client.registerEventListener(
                event -> {
                    if (event.getData() instanceof TableMapEventData map) {
                        tables.put(map.getTableId(), map.getDatabase() + "." + map.getTable());
                    } else if (event.getData() instanceof WriteRowsEventData write
                            && "shop.orders".equals(tables.get(write.getTableId()))) {
                        rows.addAll(write.getRows());
                    }
                });
        client.connect(10_000);
        try {
            server.execute("INSERT INTO shop.orders VALUES (1, 'espresso')");

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                            () ->
                                    assertThat(rows)
                                            .singleElement()
                                            .satisfies(
                                                    row -> {
                                                        assertThat(row[0]).isEqualTo(1);
                                                        assertThat(
                                                                        new String(
                                                                                (byte[]) row[1],
                                                                                UTF_8))
                                                                .isEqualTo("espresso");
                                                    }));
        } finally {
            client.disconnect();
        }
    }

    @Test
    void shouldDenyWritesWhenConnectedAsReplicationUser() throws SQLException {
        var server = MARIADB.server();
        server.execute("CREATE DATABASE inventory", "CREATE TABLE inventory.items (id INT)");

        try (var connection =
                        DriverManager.getConnection(
                                server.jdbcUrl("inventory"), server.user(), server.password());
                var statement = connection.createStatement()) {
            assertThat(statement.executeQuery("SELECT COUNT(*) FROM items").next()).isTrue();
            assertThatThrownBy(() -> statement.execute("INSERT INTO items VALUES (1)"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("INSERT command denied");
        }
    }

    @Test
    void shouldRemoveDataDirAndClosePortWhenClosed() {
        var server = MariaDbServer.start();
        var dataDir = server.dataDir();
        var port = server.port();
        assertThat(dataDir).isDirectory();
        assertThat(Ports.acceptsConnections(server.host(), port)).isTrue();

        server.close();

        assertThat(dataDir.getParent()).doesNotExist();
        assertThat(Ports.acceptsConnections(server.host(), port)).isFalse();
    }

    @Test
    void shouldUseStatementBinlogWhenConfiguredSo() throws SQLException {
        var config =
                MariaDbConfig.builder().binlogFormat(BinlogFormat.STATEMENT).serverId(7).build();

        try (var server = MariaDbServer.start(config)) {
            assertThat(variables(server))
                    .containsEntry("log_bin", "ON")
                    .containsEntry("binlog_format", "STATEMENT")
                    .containsEntry("server_id", "7");
        }
    }

    @Test
    void shouldReportErrorLogTailAndCleanUpWhenServerFailsToStart() throws IOException {
        var before = scratchDirectories();
        var config = MariaDbConfig.builder().extraOption("--no-such-option").build();

        assertThatThrownBy(() -> MariaDbServer.start(config))
                .isInstanceOf(FixtureStartException.class)
                .hasMessageContaining("mariadbd exited during start")
                .hasMessageContaining("unknown option '--no-such-option'");

        assertThat(scratchDirectories()).isSubsetOf(before);
    }

    private static BinaryLogClient replicationClient(MariaDbServer server) {
        var client =
                new BinaryLogClient(server.host(), server.port(), server.user(), server.password());
        // A replica must not reuse the source's server id, or the source drops the connection.
        client.setServerId(server.serverId() + 1000);
        client.setKeepAlive(false);
        var deserializer = new EventDeserializer();
        // Bytes, not Strings decoded with the JVM's default charset: the assertion decodes them.
        deserializer.setCompatibilityMode(CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        client.setEventDeserializer(deserializer);
        return client;
    }

    private static Map<String, String> variables(SourceDatabase source) throws SQLException {
        var names =
                List.of(
                        "log_bin",
                        "binlog_format",
                        "binlog_row_image",
                        "server_id",
                        "performance_schema");
        var values = new HashMap<String, String>();
        try (var connection = source.connect();
                var statement = connection.createStatement();
                var result =
                        statement.executeQuery(
                                names.stream()
                                        .map(name -> "'" + name + "'")
                                        .collect(
                                                Collectors.joining(
                                                        ", ",
                                                        "SHOW VARIABLES WHERE Variable_name IN (",
                                                        ")")))) {
            while (result.next()) {
                values.put(result.getString(1), result.getString(2));
            }
        }
        return values;
    }

    private static Set<Path> scratchDirectories() throws IOException {
        var root = MariaDbServer.scratchRoot();
        if (!Files.isDirectory(root)) {
            return Set.of();
        }
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.collect(Collectors.toSet());
        }
    }
}
