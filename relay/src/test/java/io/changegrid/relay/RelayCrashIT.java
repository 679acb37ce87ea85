package io.changegrid.relay;

import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@link RelayCrashCheck} with a MariaDB source, read from its binlog. */
class RelayCrashIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path work;

    @Test
    void shouldLoseAndRepeatNothingWhenTheRelayIsKilledAndRestartedWhileAConsumerLags()
            throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))");
        RelayCrashCheck.run(
                work,
                List.of(
                        "  host: " + MARIADB.server().host(),
                        "  port: " + MARIADB.server().port(),
                        "  user: " + MARIADB.server().user(),
                        "  password: " + MARIADB.server().password(),
                        "  serverId: 9201",
                        "  heartbeatInterval: 200ms"),
                "changegrid-relay-crash-it.log",
                RelayCrashIT::insert);
    }

    private static void insert(int from, int to) throws Exception {
        try (var connection = MARIADB.server().connect();
                var statement = connection.createStatement()) {
            for (int id = from; id <= to; id++) {
                statement.execute(
                        "INSERT INTO shop.orders VALUES (" + id + ", 'order " + id + "')");
            }
        }
    }
}
