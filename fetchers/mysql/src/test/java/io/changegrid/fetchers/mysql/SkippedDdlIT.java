package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DDL statement the parser refuses on a captured table stops the fetcher with its digest; listed
 * in {@code source.ddlSkip}, it is passed and the table's schema is read from the source.
 */
class SkippedDdlIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    /** System-versioned columns: MariaDB accepts them, the DDL parser refuses them. */
    private static final String UNPARSEABLE =
            "ALTER TABLE shop.orders"
                    + " ADD COLUMN valid_from TIMESTAMP(6) GENERATED ALWAYS AS ROW START,"
                    + " ADD COLUMN valid_to TIMESTAMP(6) GENERATED ALWAYS AS ROW END,"
                    + " ADD PERIOD FOR SYSTEM_TIME(valid_from, valid_to),"
                    + " ADD SYSTEM VERSIONING";

    @TempDir Path state;

    private static MariaDbServer server() {
        return MARIADB.server();
    }

    @Test
    void shouldPassAStatementAndReadTheTableFromTheSourceWhenItsDigestIsListed() throws Exception {
        server().execute(
                        "CREATE DATABASE shop",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(20))");
        String resume;
        try (RunningFetcher running = RunningFetcher.start(config(Set.of()), state, null)) {
            awaitConnected(running);
            server().execute("INSERT INTO shop.orders VALUES (1, 'before')", UNPARSEABLE);

            assertThat(running.awaitFailure())
                    .isInstanceOf(FetchFailedException.class)
                    .hasMessageContaining("DDL on a captured table could not be understood")
                    .hasMessageContaining("digest=" + DdlDigest.of(UNPARSEABLE))
                    .hasMessageContaining("source.ddlSkip");
            assertThat(running.sink.rowEvents()).hasSize(1);
            resume = running.fetcher.position().resumePosition();
        }

        try (RunningFetcher running =
                RunningFetcher.start(
                        config(Set.of(DdlDigest.of(UNPARSEABLE).toUpperCase())), state, resume)) {
            server().execute("INSERT INTO shop.orders (id, note) VALUES (2, 'after')");

            CollectingSink.Published change =
                    running.sink.awaitTransaction(
                            t ->
                                    t.events().stream()
                                            .anyMatch(
                                                    e -> e.operation() == Operation.SCHEMA_CHANGE));
            ChangeEvent schemaChange = change.events().get(0);
            assertThat(schemaChange.ddl()).isEqualTo(UNPARSEABLE);
            assertThat(schemaChange.schema().columns())
                    .extracting(Column::name)
                    .containsExactly("id", "note", "valid_from", "valid_to");
            CollectingSink.Published after =
                    running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty());
            ChangeEvent row = after.rowEvents().get(0);
            assertThat(row.after()[0]).isEqualTo(2L);
            assertThat(row.after()[1]).isEqualTo("after");
            assertThat(row.after()).hasSize(4);
            assertThat(running.failure()).isNull();
        }
    }

    private static BinlogFetcherConfig config(Set<String> ddlSkip) {
        return new BinlogFetcherConfig(
                server().host(),
                server().port(),
                server().user(),
                server().password(),
                9_031,
                1,
                TableFilter.of(List.of("shop.*"), List.of()),
                CapturePlan.everything(),
                new StartPosition.Current(),
                Duration.ofMillis(200),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                1 << 20,
                ddlSkip);
    }

    private static void awaitConnected(RunningFetcher running) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                running.sink.all().stream()
                                                .anyMatch(CollectingSink.Published::isHeartbeat)
                                        || running.failure() != null);
        assertThat(running.failure()).isNull();
    }
}
