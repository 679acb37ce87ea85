package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.SwitchableTcpProxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A relay resuming by position ({@code source.resume: position}, the default) reads a server
 * through an address that the test moves to another, unrelated server: running, its fetcher stops;
 * restarted, it does not start; both times naming the saved server and the one found.
 */
class ServerChangeIT {

    private static MariaDbServer first;
    private static MariaDbServer second;

    @TempDir Path work;

    @BeforeAll
    static void startServers() {
        first = MariaDbServer.start(MariaDbConfig.builder().serverId(1).build());
        second = MariaDbServer.start(MariaDbConfig.builder().serverId(2).build());
    }

    @AfterAll
    static void stopServers() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    @Test
    void shouldRefuseNamingBothServersWhenTheAddressLeadsToAnotherServer() throws Exception {
        first.execute("CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT PRIMARY KEY)");
        String firstServer = "server_id=1;binlog=" + basename(first);
        String secondServer = "server_id=2;binlog=" + basename(second);
        try (SwitchableTcpProxy address = new SwitchableTcpProxy(first.host(), first.port())) {
            Map<String, String> settings = settings(address);
            Relay relay = Relay.start(RelaySettings.load(Map.of(), settings));
            try {
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> relay.buffer().newestScn() >= 0);
                long before = relay.buffer().newestScn();
                first.execute("INSERT INTO shop.orders VALUES (1)");
                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> relay.buffer().newestScn() > before);
                assertThat(relay.status().fetchPosition()).contains("server=" + firstServer);

                address.switchTo(second.host(), second.port());

                Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> relay.failure() != null);
                assertThat(relay.failure().getMessage())
                        .contains("saved=" + firstServer)
                        .contains("found=" + secondServer)
                        .contains("source.resume: gtid");
                assertThat(relay.health().problem()).contains("found=" + secondServer);
            } finally {
                relay.close();
            }

            Throwable restart =
                    catchThrowable(() -> Relay.start(RelaySettings.load(Map.of(), settings)));

            assertThat(messages(restart))
                    .contains("saved=" + firstServer)
                    .contains("found=" + secondServer);
        }
    }

    private Map<String, String> settings(SwitchableTcpProxy address) {
        Map<String, String> settings = new HashMap<>();
        settings.put("source.host", "127.0.0.1");
        settings.put("source.port", Integer.toString(address.port()));
        settings.put("source.user", first.user());
        settings.put("source.password", first.password());
        settings.put("source.serverId", "9831");
        settings.put("source.heartbeatInterval", "200ms");
        settings.put("source.reconnectBackoffMax", "500ms");
        settings.put("buffer.capacity", "16MiB");
        settings.put("buffer.segmentSize", "1MiB");
        settings.put("state.directory", work.resolve("relay").toString());
        settings.put("http.port", "0");
        return settings;
    }

    private static String basename(MariaDbServer server) throws SQLException {
        try (Connection connection = server.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT @@log_bin_basename")) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** Every message of {@code error} and its causes, one per line. */
    private static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            text.append(t).append('\n');
        }
        return text.toString();
    }
}
