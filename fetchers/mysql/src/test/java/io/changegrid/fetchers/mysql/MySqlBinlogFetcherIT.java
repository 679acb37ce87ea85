package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.SourceChoice;
import io.changegrid.testkit.SourceDatabaseExtension;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binlog fetcher against MySQL 8 (Testcontainers): MySQL's own GTIDs ({@code uuid:seq}),
 * BEGIN/XID transactions, binary JSON and DDL tracking. Where no Docker engine is reachable the
 * test kit reports these tests as skipped, with the reason; the same scenarios run against MariaDB
 * in {@link BinlogFetcherIT}.
 */
class MySqlBinlogFetcherIT {

    @RegisterExtension
    static final SourceDatabaseExtension MYSQL = new SourceDatabaseExtension(SourceChoice.MYSQL8);

    @TempDir Path state;

    @Test
    void shouldPublishWholeTransactionsWithMySqlGtidsAndDecodeRowsWhenTheSourceIsMySql8()
            throws Exception {
        MYSQL.source()
                .execute(
                        "CREATE DATABASE IF NOT EXISTS shop",
                        "CREATE TABLE shop.orders (id BIGINT UNSIGNED PRIMARY KEY, total DECIMAL(10,2), placed DATETIME(6),"
                                + " doc JSON, note VARCHAR(40))");
        BinlogFetcherConfig config =
                RunningFetcher.config(
                        MYSQL.source(),
                        TableFilter.of(List.of("shop.*"), List.of()),
                        new StartPosition.Current(),
                        64 << 20);
        try (RunningFetcher running = RunningFetcher.start(config, state, null)) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> !running.sink.all().isEmpty() || running.failure() != null);
            MYSQL.source()
                    .execute(
                            "INSERT INTO shop.orders VALUES (18446744073709551615, 12.50, '2024-02-29 23:59:59.123456',"
                                    + " '{\"a\": [1, 2]}', 'first')",
                            "ALTER TABLE shop.orders ADD COLUMN status VARCHAR(10) AFTER total",
                            "UPDATE shop.orders SET status = 'paid'",
                            "DELETE FROM shop.orders");
            running.sink.awaitRowEvents(3);

            List<ChangeEvent> rows = running.sink.rowEvents();
            assertThat(rows)
                    .extracting(ChangeEvent::operation)
                    .containsExactly(Operation.INSERT, Operation.UPDATE, Operation.DELETE);
            Object[] inserted = rows.get(0).after();
            assertThat(inserted[0]).isEqualTo(new BigInteger("18446744073709551615"));
            assertThat(inserted[1]).isEqualTo(new BigDecimal("12.50"));
            assertThat(inserted[2]).isEqualTo(SqlDateTime.parse("2024-02-29T23:59:59.123456"));
            // MySQL keeps JSON in its binary form; only the text's whitespace is the reader's
            // choice.
            assertThat(((String) inserted[3]).replace(" ", "")).isEqualTo("{\"a\":[1,2]}");
            assertThat(inserted[4]).isEqualTo("first");
            assertThat(rows.get(1).after()[2]).isEqualTo("paid");
            assertThat(rows.get(1).schema().column(2).name()).isEqualTo("status");
            assertThat(rows.get(2).before()[0]).isEqualTo(new BigInteger("18446744073709551615"));
            assertThat(rows.get(0).transactionId()).matches("[0-9a-f-]{36}:\\d+");
            assertThat(
                            running.sink.transactions().stream()
                                    .flatMap(t -> t.events().stream())
                                    .filter(e -> e.operation() == Operation.SCHEMA_CHANGE)
                                    .map(ChangeEvent::ddl)
                                    .toList())
                    .containsExactly(
                            "ALTER TABLE shop.orders ADD COLUMN status VARCHAR(10) AFTER total");
        }
    }
}
