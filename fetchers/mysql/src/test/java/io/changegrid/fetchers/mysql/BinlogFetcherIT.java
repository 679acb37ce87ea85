package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The binlog fetcher against a private mariadbd: types, transactions, positions, DDL, errors. */
class BinlogFetcherIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path state;

    private static MariaDbServer server() {
        return MARIADB.server();
    }

    @BeforeAll
    static void createSchema() throws Exception {
        server().execute(
                        "CREATE DATABASE shop",
                        "CREATE DATABASE crm",
                        """
                CREATE TABLE shop.all_types (
                  id INT PRIMARY KEY,
                  c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED, c_smallint SMALLINT,
                  c_smallint_u SMALLINT UNSIGNED, c_mediumint MEDIUMINT, c_mediumint_u MEDIUMINT UNSIGNED,
                  c_int INT, c_int_u INT UNSIGNED, c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED,
                  c_decimal DECIMAL(65,30), c_decimal0 DECIMAL(10,0), c_float FLOAT, c_double DOUBLE,
                  c_bit1 BIT(1), c_bit64 BIT(64),
                  c_date DATE, c_time TIME(6), c_time0 TIME, c_datetime DATETIME(6), c_datetime3 DATETIME(3),
                  c_timestamp TIMESTAMP(6) NULL, c_year YEAR,
                  c_char CHAR(10) CHARACTER SET utf8mb4, c_varchar_latin1 VARCHAR(100) CHARACTER SET latin1,
                  c_text MEDIUMTEXT CHARACTER SET utf8mb4,
                  c_binary BINARY(4), c_varbinary VARBINARY(100), c_blob LONGBLOB,
                  c_enum ENUM('','small','large'), c_set SET('a','b','c'), c_json JSON, c_geometry GEOMETRY
                ) CHARACTER SET utf8mb4""",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY, customer VARCHAR(40), total DECIMAL(10,2))",
                        "CREATE TABLE crm.notes (id INT PRIMARY KEY, body TEXT)",
                        "CREATE TABLE shop.no_key (a INT, b VARCHAR(10))");
    }

    @Test
    void shouldDecodeEveryColumnTypeLosslesslyWhenRowsHoldEdgeValues() throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.all_types"), List.of())),
                        state,
                        null)) {
            awaitConnected(running);
            server().execute(
                            "SET SESSION sql_mode = '', SESSION time_zone = '+00:00'",
                            "INSERT INTO shop.all_types VALUES (1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0,"
                                    + " -9223372036854775808, 0,"
                                    + " -99999999999999999999999999999999999.999999999999999999999999999999, -9999999999,"
                                    + " -3.40282e38, -1.7976931348623157e308, b'0',"
                                    + " b'1000000000000000000000000000000000000000000000000000000000000001',"
                                    + " '0000-00-00', '-838:59:59.000000', '-00:00:01', '0000-00-00 00:00:00.000000',"
                                    + " '2024-02-00 00:00:00.000', '1970-01-01 00:00:01', 0, '', 'caf\u00e9 \u00ff\u00c0',"
                                    + " '\uD83D\uDE00 emoji \u4e2d\u6587', x'01', x'', x'00ff', '', '',"
                                    + " '{\"a\": [1, 2.5, null, \"x\"]}', ST_GeomFromText('POINT(1 2)', 4326))",
                            "INSERT INTO shop.all_types VALUES (2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647,"
                                    + " 4294967295, 9223372036854775807, 18446744073709551615,"
                                    + " 99999999999999999999999999999999999.999999999999999999999999999999, 9999999999,"
                                    + " 3.40282e38, 1.7976931348623157e308, b'1',"
                                    + " b'1111111111111111111111111111111111111111111111111111111111111111',"
                                    + " '9999-12-31', '838:59:59.000000', '838:59:59', '9999-12-31 23:59:59.999999',"
                                    + " '2024-00-15 12:30:45.5', '2038-01-19 03:14:07.999999', 2155, '0123456789',"
                                    + " 'plain', 'x', x'ffffffff', x'000102', x'', 'large', 'a,c', '[]',"
                                    + " ST_GeomFromText('POINT(-122.5 37.25)'))",
                            "INSERT INTO shop.all_types VALUES (3, 0, 128, 0, 32768, 0, 8388608, 0, 2147483648, 0,"
                                    + " 9223372036854775808, 0.000000000000000000000000000001, 0, 1.5, -0.0, NULL, b'0',"
                                    + " '2024-00-15', '-00:00:00.000001', '00:00:00', '2024-02-29 23:59:59.000001',"
                                    + " '1000-01-01 00:00:00', '2024-02-29 12:00:00.5', 1901, 'a', '', '', x'00000000',"
                                    + " NULL, NULL, 'small', 'a,b,c', 'null', NULL)",
                            "INSERT INTO shop.all_types (id) VALUES (4)");
            running.sink.awaitRowEvents(4);

            Map<Long, Object[]> rows = new HashMap<>();
            for (ChangeEvent event : running.sink.rowEvents()) {
                rows.put((Long) event.after()[0], event.after());
            }
            assertThat(rows.get(1L))
                    .containsExactly(
                            1L,
                            -128L,
                            0L,
                            -32768L,
                            0L,
                            -8388608L,
                            0L,
                            -2147483648L,
                            0L,
                            Long.MIN_VALUE,
                            BigInteger.ZERO,
                            new BigDecimal(
                                    "-99999999999999999999999999999999999.999999999999999999999999999999"),
                            new BigDecimal("-9999999999"),
                            -3.40282e38f,
                            -1.7976931348623157e308,
                            bits(),
                            bits(0, 63),
                            SqlDate.ZERO,
                            Duration.parse("-PT838H59M59S"),
                            Duration.ofSeconds(-1),
                            SqlDateTime.ZERO,
                            new SqlDateTime(new SqlDate(2024, 2, 0), 0),
                            Instant.ofEpochSecond(1),
                            0L,
                            "",
                            "caf\u00e9 \u00ff\u00c0",
                            "\uD83D\uDE00 emoji \u4e2d\u6587",
                            new byte[] {1, 0, 0, 0},
                            new byte[0],
                            new byte[] {0, (byte) 0xff},
                            "",
                            "",
                            "{\"a\": [1, 2.5, null, \"x\"]}",
                            new Geometry(4326, point(1, 2)));
            assertThat(rows.get(2L))
                    .containsExactly(
                            2L,
                            127L,
                            255L,
                            32767L,
                            65535L,
                            8388607L,
                            16777215L,
                            2147483647L,
                            4294967295L,
                            Long.MAX_VALUE,
                            new BigInteger("18446744073709551615"),
                            new BigDecimal(
                                    "99999999999999999999999999999999999.999999999999999999999999999999"),
                            new BigDecimal("9999999999"),
                            3.40282e38f,
                            1.7976931348623157e308,
                            bits(0),
                            allBits(64),
                            new SqlDate(9999, 12, 31),
                            Duration.parse("PT838H59M59S"),
                            Duration.parse("PT838H59M59S"),
                            new SqlDateTime(new SqlDate(9999, 12, 31), 86_399_999_999_000L),
                            new SqlDateTime(new SqlDate(2024, 0, 15), 45_045_500_000_000L),
                            Instant.parse("2038-01-19T03:14:07.999999Z"),
                            2155L,
                            "0123456789",
                            "plain",
                            "x",
                            new byte[] {-1, -1, -1, -1},
                            new byte[] {0, 1, 2},
                            new byte[0],
                            "large",
                            "a,c",
                            "[]",
                            new Geometry(0, point(-122.5, 37.25)));
            assertThat(rows.get(3L))
                    .containsExactly(
                            3L,
                            0L,
                            128L,
                            0L,
                            32768L,
                            0L,
                            8388608L,
                            0L,
                            2147483648L,
                            0L,
                            new BigInteger("9223372036854775808"),
                            new BigDecimal("0.000000000000000000000000000001"),
                            new BigDecimal("0"),
                            1.5f,
                            0.0d,
                            null,
                            bits(),
                            new SqlDate(2024, 0, 15),
                            Duration.ofNanos(-1_000),
                            Duration.ZERO,
                            new SqlDateTime(new SqlDate(2024, 2, 29), 86_399_000_001_000L),
                            new SqlDateTime(new SqlDate(1000, 1, 1), 0),
                            Instant.parse("2024-02-29T12:00:00.5Z"),
                            1901L,
                            "a",
                            "",
                            "",
                            new byte[4],
                            null,
                            null,
                            "small",
                            "a,b,c",
                            "null",
                            null);
            Object[] nulls = new Object[rows.get(4L).length];
            nulls[0] = 4L;
            assertThat(rows.get(4L)).containsExactly(nulls);

            // Every column type in before and after images: a key-changing UPDATE, then a DELETE.
            server().execute(
                            "UPDATE shop.all_types SET id = id + 10",
                            "DELETE FROM shop.all_types WHERE id > 10");
            running.sink.awaitRowEvents(12);
            List<ChangeEvent> changes = running.sink.rowEvents().subList(4, 12);
            for (ChangeEvent update : changes.subList(0, 4)) {
                assertThat(update.operation()).isEqualTo(Operation.UPDATE);
                long id = (Long) update.before()[0];
                assertThat(update.before()).containsExactly(rows.get(id));
                Object[] moved = rows.get(id).clone();
                moved[0] = id + 10;
                assertThat(update.after()).containsExactly(moved);
                assertThat(update.key()).containsExactly(id + 10);
            }
            for (ChangeEvent delete : changes.subList(4, 8)) {
                assertThat(delete.operation()).isEqualTo(Operation.DELETE);
                long id = (Long) delete.before()[0];
                Object[] expected = rows.get(id - 10).clone();
                expected[0] = id;
                assertThat(delete.before()).containsExactly(expected);
                assertThat(delete.after()).isNull();
            }
        }
    }

    @Test
    void shouldPublishWholeTransactionsAcrossTablesInCommitOrder() throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.orders", "crm.*"), List.of())),
                        state,
                        null)) {
            awaitConnected(running);
            try (var connection = server().connect()) {
                connection.setAutoCommit(false);
                try (var statement = connection.createStatement()) {
                    for (int txn = 0; txn < 20; txn++) {
                        statement.execute(
                                "INSERT INTO shop.orders VALUES ("
                                        + (100 + txn)
                                        + ", 'c"
                                        + txn
                                        + "', "
                                        + txn
                                        + ".50)");
                        statement.execute(
                                "INSERT INTO crm.notes VALUES ("
                                        + (100 + txn)
                                        + ", 'note "
                                        + txn
                                        + "')");
                        statement.execute(
                                "UPDATE shop.orders SET total = total + 1 WHERE id = "
                                        + (100 + txn));
                        if (txn % 3 == 0) {
                            statement.execute("DELETE FROM crm.notes WHERE id = " + (100 + txn));
                        }
                        connection.commit();
                    }
                }
            }
            running.sink.awaitRowEvents(20 * 3 + 7);

            List<CollectingSink.Published> transactions = running.sink.transactions();
            assertThat(transactions).hasSize(20);
            long previous = -1;
            for (int txn = 0; txn < 20; txn++) {
                CollectingSink.Published published = transactions.get(txn);
                assertThat(published.scn()).isGreaterThan(previous);
                previous = published.scn();
                List<ChangeEvent> events = published.events();
                assertThat(events.get(events.size() - 1).operation())
                        .isEqualTo(Operation.END_OF_TRANSACTION);
                assertThat(events.get(events.size() - 1).index()).isEqualTo(events.size() - 1);
                assertThat(published.rowEvents())
                        .extracting(ChangeEvent::operation)
                        .containsExactlyElementsOf(
                                txn % 3 == 0
                                        ? List.of(
                                                Operation.INSERT,
                                                Operation.INSERT,
                                                Operation.UPDATE,
                                                Operation.DELETE)
                                        : List.of(
                                                Operation.INSERT,
                                                Operation.INSERT,
                                                Operation.UPDATE));
                ChangeEvent update = published.rowEvents().get(2);
                assertThat(update.before())
                        .containsExactly((long) 100 + txn, "c" + txn, new BigDecimal(txn + ".50"));
                assertThat(update.after())
                        .containsExactly(
                                (long) 100 + txn, "c" + txn, new BigDecimal((txn + 1) + ".50"));
                assertThat(events)
                        .extracting(ChangeEvent::transactionId)
                        .containsOnly(events.get(0).transactionId());
                assertThat(events.get(0).transactionId()).matches("0-1-\\d+"); // domain-server-seq
            }
        }
    }

    @Test
    void shouldPublishOnlyCapturedRowsWhenTransactionsInterleaveRowsOfUncapturedTables()
            throws Exception {
        // The rows of crm.notes are left unread by the row deserializers; multi-row events of it
        // sit between captured ones, so a misread event boundary would garble what follows.
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.orders"), List.of())), state, null)) {
            awaitConnected(running);
            try (var connection = server().connect()) {
                connection.setAutoCommit(false);
                try (var statement = connection.createStatement()) {
                    for (int txn = 0; txn < 10; txn++) {
                        int id = 300 + 10 * txn;
                        statement.execute(
                                "INSERT INTO crm.notes VALUES ("
                                        + id
                                        + ", REPEAT('x', 3000)), ("
                                        + (id + 1)
                                        + ", 'b'), ("
                                        + (id + 2)
                                        + ", 'c')");
                        statement.execute(
                                "INSERT INTO shop.orders VALUES ("
                                        + id
                                        + ", 'c"
                                        + txn
                                        + "', 1.00)");
                        statement.execute(
                                "UPDATE crm.notes SET body = 'changed' WHERE id >= " + id);
                        statement.execute("UPDATE shop.orders SET total = 2.00 WHERE id = " + id);
                        statement.execute("DELETE FROM crm.notes WHERE id = " + (id + 1));
                        connection.commit();
                    }
                }
            }
            running.sink.awaitRowEvents(20);

            List<CollectingSink.Published> transactions = running.sink.transactions();
            assertThat(transactions).hasSize(10);
            for (int txn = 0; txn < 10; txn++) {
                List<ChangeEvent> rows = transactions.get(txn).rowEvents();
                assertThat(rows)
                        .extracting(ChangeEvent::operation)
                        .containsExactly(Operation.INSERT, Operation.UPDATE);
                assertThat(rows)
                        .extracting(e -> e.schema().qualifiedName())
                        .containsOnly("shop.orders");
                assertThat(rows.get(1).after())
                        .containsExactly((long) 300 + 10 * txn, "c" + txn, new BigDecimal("2.00"));
            }
            assertThat(running.failure()).isNull();
        }
    }

    @Test
    void
            shouldDecodeEveryRowWithTheSchemaOfItsTimeWhenDdlRunsMidStreamAndAfterARestartAtAnOlderPosition()
                    throws Exception {
        server().execute("CREATE TABLE shop.evolving (id INT PRIMARY KEY, a VARCHAR(10), b INT)");
        TableFilter capture = TableFilter.of(List.of("shop.evolving", "shop.renamed"), List.of());
        String olderPosition;
        try (RunningFetcher running = RunningFetcher.start(config(capture), state, null)) {
            awaitConnected(running);
            server().execute("INSERT INTO shop.evolving VALUES (1, 'one', 10)");
            olderPosition =
                    running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty()).resumePosition();
            server().execute(
                            "ALTER TABLE shop.evolving ADD COLUMN c DATE AFTER a",
                            "INSERT INTO shop.evolving VALUES (2, 'two', '2024-01-02', 20)",
                            "ALTER TABLE shop.evolving DROP COLUMN b",
                            "INSERT INTO shop.evolving VALUES (3, 'three', '2024-01-03')",
                            "ALTER TABLE shop.evolving RENAME COLUMN a TO name",
                            "RENAME TABLE shop.evolving TO shop.renamed",
                            "INSERT INTO shop.renamed VALUES (4, 'four', NULL)");
            running.sink.awaitRowEvents(4);
            assertRowsDecodedWithTheirSchemas(running.sink.rowEvents());
            assertThat(
                            running.sink.transactions().stream()
                                    .flatMap(t -> t.events().stream())
                                    .filter(e -> e.operation() == Operation.SCHEMA_CHANGE)
                                    .map(ChangeEvent::ddl)
                                    .toList())
                    .containsExactly(
                            "ALTER TABLE shop.evolving ADD COLUMN c DATE AFTER a",
                            "ALTER TABLE shop.evolving DROP COLUMN b",
                            "ALTER TABLE shop.evolving RENAME COLUMN a TO name",
                            "RENAME TABLE shop.evolving TO shop.renamed");
        }

        // Restart where the first insert ended: every later DDL is replayed from the binlog, and
        // the
        // history written after that position is dropped and rebuilt with the same versions.
        try (RunningFetcher restarted =
                RunningFetcher.start(config(capture), state, olderPosition)) {
            restarted.sink.awaitRowEvents(3);
            List<ChangeEvent> rows = restarted.sink.rowEvents();
            assertThat(rows).extracting(e -> e.after()[0]).containsExactly(2L, 3L, 4L);
            assertRowsDecodedWithTheirSchemas(rows);
        }
    }

    private static void assertRowsDecodedWithTheirSchemas(List<ChangeEvent> rows) {
        for (ChangeEvent row : rows) {
            TableSchema schema = row.schema();
            Map<String, Object> byName = new HashMap<>();
            for (int i = 0; i < schema.columnCount(); i++) {
                byName.put(schema.column(i).name(), row.after()[i]);
            }
            long id = (Long) row.after()[0];
            Map<String, Object> expected =
                    switch ((int) id) {
                        case 1 -> Map.of("id", 1L, "a", "one", "b", 10L);
                        case 2 ->
                                Map.of(
                                        "id",
                                        2L,
                                        "a",
                                        "two",
                                        "c",
                                        new SqlDate(2024, 1, 2),
                                        "b",
                                        20L);
                        case 3 -> Map.of("id", 3L, "a", "three", "c", new SqlDate(2024, 1, 3));
                        default -> {
                            Map<String, Object> four = new HashMap<>();
                            four.put("id", 4L);
                            four.put("name", "four");
                            four.put("c", null);
                            yield four;
                        }
                    };
            assertThat(byName).as("row %d with schema %s", id, schema).isEqualTo(expected);
            assertThat(schema.table()).isEqualTo(id == 4 ? "renamed" : "evolving");
        }
    }

    @Test
    void shouldStopWithAClearErrorWhenResumingAtAPurgedPosition() throws Exception {
        String resume;
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.orders"), List.of())), state, null)) {
            awaitConnected(running);
            server().execute("INSERT INTO shop.orders VALUES (900, 'purge', 1)");
            resume = running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty()).resumePosition();
        }
        server().execute("FLUSH BINARY LOGS", "FLUSH BINARY LOGS");
        String current;
        try (var connection = server().connect();
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SHOW MASTER STATUS")) {
            rows.next();
            current = rows.getString("File");
        }
        // MariaDB purges a file only after its binlog checkpoint, written asynchronously: retry.
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> {
                            server().execute("PURGE BINARY LOGS TO '" + current + "'");
                            try (var connection = server().connect();
                                    var statement = connection.createStatement();
                                    var rows = statement.executeQuery("SHOW BINARY LOGS")) {
                                rows.next();
                                return rows.getString(1).equals(current);
                            }
                        });

        try (RunningFetcher restarted =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.orders"), List.of())), state, resume)) {
            assertThat(restarted.awaitFailure())
                    .isInstanceOf(FetchFailedException.class)
                    .hasMessageContaining(
                            "binlog position is no longer on the server (purged?): position="
                                    + resume);
        }
    }

    @Test
    void shouldStopWithTheStatementNamedWhenDdlOnACapturedTableCannotBeUnderstood()
            throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.*"), List.of())), state, null)) {
            awaitConnected(running);
            // Created without being logged, so the tracker never learns its columns: the ALTER
            // that follows cannot be applied to a schema it does not have.
            server().execute(
                            "SET SESSION sql_log_bin = 0",
                            "CREATE TABLE shop.hidden (id INT PRIMARY KEY)",
                            "SET SESSION sql_log_bin = 1",
                            "ALTER TABLE shop.hidden ADD COLUMN extra INT");

            assertThat(running.awaitFailure())
                    .isInstanceOf(FetchFailedException.class)
                    .hasMessageContaining("DDL on a captured table could not be understood")
                    .hasMessageContaining("statement=ALTER TABLE shop.hidden ADD COLUMN extra INT")
                    .hasMessageContaining("capture.exclude");
        }
    }

    @Test
    void shouldSkipDdlItCannotUnderstandWhenTheTableIsExcludedAndKeepGoing() throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.*"), List.of("shop.ignored"))),
                        state,
                        null)) {
            awaitConnected(running);
            server().execute(
                            "SET SESSION sql_log_bin = 0",
                            "CREATE TABLE shop.ignored (id INT PRIMARY KEY)",
                            "SET SESSION sql_log_bin = 1",
                            "ALTER TABLE shop.ignored ADD COLUMN extra INT",
                            "INSERT INTO shop.orders VALUES (8000, 'after skipped ddl', 1)");

            CollectingSink.Published after =
                    running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty());
            assertThat(after.rowEvents().get(0).after()[0]).isEqualTo(8000L);
            assertThat(running.failure()).isNull();
        }
    }

    @Test
    void shouldKeepACreateSelectAndItsRowsInOneTransaction() throws Exception {
        server().execute(
                        "CREATE TABLE shop.source_rows (id INT PRIMARY KEY, v INT)",
                        "INSERT INTO shop.source_rows VALUES (1, 10), (2, 20)");
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.copied"), List.of())), state, null)) {
            awaitConnected(running);
            server().execute("CREATE TABLE shop.copied AS SELECT * FROM shop.source_rows");

            CollectingSink.Published created =
                    running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty());
            assertThat(created.events())
                    .extracting(ChangeEvent::operation)
                    .containsExactly(
                            Operation.SCHEMA_CHANGE,
                            Operation.INSERT,
                            Operation.INSERT,
                            Operation.END_OF_TRANSACTION);
            assertThat(running.sink.transactions()).hasSize(1);
        }
    }

    @Test
    void shouldRefuseATransactionLargerThanTheRelayCanPublishWhole() throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        RunningFetcher.config(
                                server(),
                                TableFilter.of(List.of("crm.notes"), List.of()),
                                new StartPosition.Current(),
                                4096),
                        state,
                        null)) {
            awaitConnected(running);
            server().execute("INSERT INTO crm.notes VALUES (5000, REPEAT('x', 5000))");

            assertThat(running.awaitFailure())
                    .isInstanceOf(TransactionTooLargeException.class)
                    .hasMessageContaining("maxTransactionBytes=4096");
        }
    }

    @Test
    void shouldReconnectAndResumeAtTheLastWholeTransactionWhenTheConnectionIsKilled()
            throws Exception {
        server().execute("CREATE TABLE shop.reconnect (id INT PRIMARY KEY)");
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.reconnect"), List.of())),
                        state,
                        null)) {
            awaitConnected(running);
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 50; i++) {
                    server().execute(
                                    "INSERT INTO shop.reconnect VALUES ("
                                            + (round * 100 + i)
                                            + ")");
                }
                // The server ends the relay's binlog stream, as a failover or a network cut would.
                try (var connection = server().connect();
                        var statement = connection.createStatement();
                        var dumps =
                                statement.executeQuery(
                                        "SELECT ID FROM information_schema.PROCESSLIST"
                                                + " WHERE COMMAND LIKE 'Binlog Dump%'")) {
                    List<Long> ids = new java.util.ArrayList<>();
                    while (dumps.next()) {
                        ids.add(dumps.getLong(1));
                    }
                    for (long id : ids) {
                        server().execute("KILL " + id);
                    }
                }
            }
            server().execute("INSERT INTO shop.reconnect VALUES (999)");
            running.sink.awaitTransaction(
                    t -> t.rowEvents().stream().anyMatch(e -> e.after()[0].equals(999L)));

            List<Object> ids = running.sink.rowEvents().stream().map(e -> e.after()[0]).toList();
            assertThat(ids).hasSize(151).doesNotHaveDuplicates();
            long previous = -1;
            for (CollectingSink.Published published : running.sink.transactions()) {
                assertThat(published.scn()).isGreaterThan(previous);
                previous = published.scn();
            }
            assertThat(running.failure()).isNull();
        }
    }

    @Test
    void shouldAdvanceTheTimelineWithHeartbeatsWhenTheSourceIsIdle() throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        config(TableFilter.of(List.of("shop.orders"), List.of())), state, null)) {
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    running.sink.all().stream()
                                                    .filter(CollectingSink.Published::isHeartbeat)
                                                    .count()
                                            >= 2);
            server().execute("INSERT INTO crm.notes VALUES (7000, 'not captured')");
            server().execute("INSERT INTO shop.orders VALUES (7000, 'captured', 1)");
            CollectingSink.Published captured =
                    running.sink.awaitTransaction(t -> !t.rowEvents().isEmpty());
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    running.sink.all().stream()
                                            .anyMatch(
                                                    p ->
                                                            p.isHeartbeat()
                                                                    && p.scn() > captured.scn()));

            long previous = -1;
            for (CollectingSink.Published published : running.sink.all()) {
                assertThat(published.scn()).isGreaterThanOrEqualTo(previous);
                if (!published.isHeartbeat()) {
                    assertThat(published.scn()).isGreaterThan(previous);
                }
                previous = published.scn();
            }
        }
    }

    private static void awaitConnected(RunningFetcher running) {
        // The first heartbeat proves the binlog connection is up and positioned.
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                running.sink.all().stream()
                                                .anyMatch(CollectingSink.Published::isHeartbeat)
                                        || running.failure() != null);
        assertThat(running.failure()).isNull();
    }

    private static BinlogFetcherConfig config(TableFilter capture) {
        return RunningFetcher.config(server(), capture, new StartPosition.Current(), 64 << 20);
    }

    private static BitSet bits(int... set) {
        BitSet bits = new BitSet();
        for (int bit : set) {
            bits.set(bit);
        }
        return bits;
    }

    private static BitSet allBits(int width) {
        BitSet bits = new BitSet();
        bits.set(0, width);
        return bits;
    }

    private static byte[] point(double x, double y) {
        return ByteBuffer.allocate(21)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) 1)
                .putInt(1)
                .putDouble(x)
                .putDouble(y)
                .array();
    }

    @Test
    void shouldReportEveryStartupProblemWhenTheUserLacksReplicationPrivileges() throws Exception {
        server().execute(
                        "CREATE USER 'weak'@'%' IDENTIFIED BY 'weak'",
                        "GRANT SELECT ON *.* TO 'weak'@'%'");
        BinlogFetcherConfig weak =
                new BinlogFetcherConfig(
                        server().host(),
                        server().port(),
                        "weak",
                        "weak",
                        1,
                        1,
                        TableFilter.all(),
                        CapturePlan.everything(),
                        new StartPosition.Current(),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(1),
                        1 << 20);

        assertThatThrownBy(() -> BinlogFetcher.open(weak, state, null, new CollectingSink()))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("server_id clash")
                .hasMessageContaining("missing privilege REPLICATION SLAVE")
                .hasMessageContaining("missing privilege REPLICATION CLIENT");
    }
}
