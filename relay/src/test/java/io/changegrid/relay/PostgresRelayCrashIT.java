package io.changegrid.relay;

import io.changegrid.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RelayCrashCheck} with a PostgreSQL source: {@code kill -9} of a relay process reading a
 * private PostgreSQL's slot in the middle of a load, then a restart: a consumer that was lagging
 * behind at the moment of the crash still receives every transaction exactly once, in SCN order,
 * with no gap, because the slot was confirmed only up to the relay's durable replay point.
 */
class PostgresRelayCrashIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    @TempDir Path work;

    @Test
    void shouldLoseAndRepeatNothingWhenTheRelayIsKilledAndRestartedWhileAConsumerLags()
            throws Exception {
        POSTGRES.server().createDatabase("shop");
        POSTGRES.server()
                .execute(
                        "shop",
                        "CREATE SCHEMA shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(200))",
                        "ALTER TABLE shop.orders REPLICA IDENTITY FULL");
        RelayCrashCheck.run(
                work,
                List.of(
                        "  type: postgresql",
                        "  host: " + POSTGRES.server().host(),
                        "  port: " + POSTGRES.server().port(),
                        "  database: shop",
                        "  user: " + POSTGRES.server().user(),
                        "  slot: crash",
                        "  heartbeatInterval: 200ms"),
                "changegrid-postgres-relay-crash-it.log",
                PostgresRelayCrashIT::insert);
    }

    private static void insert(int from, int to) throws Exception {
        try (var connection = POSTGRES.server().connect("shop");
                var statement = connection.createStatement()) {
            for (int id = from; id <= to; id++) {
                statement.execute(
                        "INSERT INTO shop.orders VALUES (" + id + ", 'order " + id + "')");
            }
        }
    }
}
