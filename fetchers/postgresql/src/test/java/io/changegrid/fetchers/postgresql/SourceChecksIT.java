package io.changegrid.fetchers.postgresql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.testkit.PostgresServerExtension;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Start-time checks against a server that is not ready for logical decoding. */
class SourceChecksIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES =
            new PostgresServerExtension(Map.of("wal_level", "replica"));

    @Test
    void shouldStopAtStartNamingEveryProblemWhenTheSourceIsNotReady() throws Exception {
        var server = POSTGRES.server();
        server.createDatabase("shop");
        server.execute(
                "shop",
                "CREATE SCHEMA shop",
                "CREATE TABLE shop.orders (id int PRIMARY KEY, doc xml)",
                "CREATE TABLE shop.lines (id int PRIMARY KEY)",
                "ALTER TABLE shop.lines REPLICA IDENTITY FULL",
                "CREATE ROLE plain LOGIN");
        var defaults = PgRunningFetcher.config(server, "shop", "plain", "relay1");
        var config =
                new PostgresFetcherConfig(
                        defaults.host(),
                        defaults.port(),
                        defaults.database(),
                        defaults.user(),
                        "",
                        defaults.slot(),
                        "missing_pub",
                        false,
                        defaults.start(),
                        defaults.heartbeatInterval(),
                        defaults.statusInterval(),
                        defaults.connectTimeout(),
                        defaults.reconnectBackoffMax(),
                        1,
                        defaults.capture(),
                        defaults.plan(),
                        defaults.maxTransactionBytes());
        assertThatThrownBy(
                        () ->
                                PgOutputFetcher.open(
                                        config,
                                        java.nio.file.Path.of("target"),
                                        null,
                                        new CollectingSink()))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("wal_level must be logical: wal_level=replica")
                .hasMessageContaining("ALTER SYSTEM SET wal_level = logical")
                .hasMessageContaining("user lacks the REPLICATION attribute: user=plain")
                .hasMessageContaining("ALTER ROLE \"plain\" REPLICATION")
                .hasMessageContaining("publication missing: publication=missing_pub")
                .hasMessageContaining(
                        "CREATE PUBLICATION missing_pub FOR TABLE \"shop\".\"lines\", \"shop\".\"orders\"")
                .hasMessageContaining("without REPLICA IDENTITY FULL: table=shop.orders")
                .hasMessageContaining("ALTER TABLE \"shop\".\"orders\" REPLICA IDENTITY FULL")
                .hasMessageContaining(
                        "column type the fetcher cannot carry: table=shop.orders, column=doc, type=xml")
                .hasMessageNotContaining("table=shop.lines,");
    }
}
