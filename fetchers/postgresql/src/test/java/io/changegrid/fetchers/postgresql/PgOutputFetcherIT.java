package io.changegrid.fetchers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.testkit.PostgresServerExtension;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The PostgreSQL fetcher against a private PostgreSQL with logical decoding. */
class PgOutputFetcherIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** A fresh database with schema {@code shop}; its name doubles as the slot's. */
    private static String database(String... ddl) throws SQLException {
        String name = "db" + DATABASES.incrementAndGet();
        POSTGRES.server().createDatabase(name);
        POSTGRES.server().execute(name, "CREATE SCHEMA shop");
        POSTGRES.server().execute(name, ddl);
        return name;
    }

    /** Each test's slot is dropped after it: the server has a few slots only. */
    @org.junit.jupiter.api.AfterEach
    void dropIdleSlots() throws SQLException {
        POSTGRES.server()
                .execute(
                        "postgres",
                        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                                + " WHERE NOT active");
    }

    private static PgRunningFetcher fetcher(String database) throws Exception {
        return PgRunningFetcher.start(
                PgRunningFetcher.config(POSTGRES.server(), database, "postgres", database), null);
    }

    @Test
    void shouldCarryEveryMappedTypeExactlyWhenRowsAreInserted() throws Exception {
        String db =
                database(
                        "CREATE TYPE shop.mood AS ENUM ('sad', 'happy')",
                        "CREATE DOMAIN shop.posint AS integer CHECK (VALUE > 0)",
                        "CREATE TABLE shop.types (id int PRIMARY KEY, i2 smallint, i8 bigint, n numeric(20,5),"
                                + " nu numeric, f4 real, f8 double precision, b boolean, t text, vc varchar(10),"
                                + " ch char(5), by bytea, d date, tm time(6), ttz timetz, ts timestamp(6),"
                                + " tstz timestamptz, iv interval, u uuid, j json, jb jsonb, e shop.mood, arr int[],"
                                + " ip inet, cid cidr, mac macaddr, bt bit(5), vb varbit(8), m money, dom shop.posint,"
                                + " tarr text[])",
                        "ALTER TABLE shop.types REPLICA IDENTITY FULL");
        try (PgRunningFetcher running = fetcher(db)) {
            POSTGRES.server()
                    .execute(
                            db,
                            "INSERT INTO shop.types VALUES (1, -32768, 9223372036854775807, 123456789012345.12345,"
                                    + " 1.000100, 3.4028235e38, -1.7976931348623157e308, true, 'ünï ☃ 😀', 'abc', 'ab',"
                                    + " '\\x00ff10', '2024-02-29', '23:59:59.999999', '10:00:00+05:30',"
                                    + " '2024-02-29 23:59:59.123456', '2024-02-29 23:59:59.123456+00',"
                                    + " '1 year 2 mons 3 days 04:05:06.5', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',"
                                    + " '{\"a\": [1, 2]}', '{\"b\": 1, \"a\": 2}', 'happy', '{1,2,NULL}',"
                                    + " '192.168.0.1/24', '10.0.0.0/8', '08:00:2b:01:02:03', B'10110', B'101', 12.34,"
                                    + " 7, '{\"x y\",z}')",
                            "INSERT INTO shop.types (id) VALUES (2)",
                            "INSERT INTO shop.types (id, f4, f8, d, ts, tstz, nu) VALUES (3, 'Infinity', 'NaN',"
                                    + " '0044-03-15 BC', '1999-01-08 04:05:06', '1970-01-01 05:30:00+05:30',"
                                    + " 0.000000000000000000000000000001)");
            running.sink.awaitRowEvents(3);
            List<ChangeEvent> rows = running.sink.rowEvents();
            Object[] full = rows.get(0).after();
            BitSet bits = new BitSet();
            bits.set(1);
            bits.set(2);
            bits.set(4);
            assertThat(full)
                    .containsExactly(
                            1L,
                            -32768L,
                            Long.MAX_VALUE,
                            new BigDecimal("123456789012345.12345"),
                            new BigDecimal("1.000100"),
                            3.4028235e38f,
                            -1.7976931348623157e308,
                            true,
                            "ünï ☃ 😀",
                            "abc",
                            "ab   ",
                            new byte[] {0, (byte) 0xff, 0x10},
                            new SqlDate(2024, 2, 29),
                            Duration.ofHours(24).minusNanos(1_000),
                            "10:00:00+05:30",
                            new SqlDateTime(
                                    new SqlDate(2024, 2, 29),
                                    Duration.ofHours(24)
                                            .minusSeconds(1)
                                            .plusNanos(123_456_000)
                                            .toNanos()),
                            Instant.parse("2024-02-29T23:59:59.123456Z"),
                            "1 year 2 mons 3 days 04:05:06.5",
                            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                            "{\"a\": [1, 2]}",
                            "{\"a\": 2, \"b\": 1}",
                            "happy",
                            "{1,2,NULL}",
                            "192.168.0.1/24",
                            "10.0.0.0/8",
                            "08:00:2b:01:02:03",
                            bits,
                            "101",
                            "$12.34",
                            7L,
                            "{\"x y\",z}");
            Object[] nulls = rows.get(1).after();
            assertThat(nulls).hasSize(31);
            assertThat(nulls[0]).isEqualTo(2L);
            assertThat(Arrays.copyOfRange(nulls, 1, nulls.length)).containsOnlyNulls();
            Object[] edges = rows.get(2).after();
            assertThat(edges[4]).isEqualTo(new BigDecimal("0.000000000000000000000000000001"));
            assertThat(edges[5]).isEqualTo(Float.POSITIVE_INFINITY);
            assertThat((Double) edges[6]).isNaN();
            assertThat(edges[12]).isEqualTo(new SqlDate(-43, 3, 15));
            assertThat(edges[15])
                    .isEqualTo(
                            new SqlDateTime(
                                    new SqlDate(1999, 1, 8), Duration.parse("PT4H5M6S").toNanos()));
            assertThat(edges[16]).isEqualTo(Instant.EPOCH);
            var schema = rows.get(0).schema();
            assertThat(schema.keyColumns()).containsExactly("id");
            assertThat(schema.column(3).sourceType()).isEqualTo("numeric(20,5)");
            assertThat(schema.column(29).sourceType()).isEqualTo("shop.posint");
            assertThat(schema.column(26).width()).isEqualTo(5);
        }
    }

    @Test
    void shouldStopNamingTableColumnAndValueWhenNumericIsNaN() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.prices (id int PRIMARY KEY, p numeric)",
                        "ALTER TABLE shop.prices REPLICA IDENTITY FULL");
        try (PgRunningFetcher running = fetcher(db)) {
            POSTGRES.server().execute(db, "INSERT INTO shop.prices VALUES (1, 'NaN')");
            assertThat(running.awaitFailure())
                    .isInstanceOf(FetchFailedException.class)
                    .hasMessageContaining("table=shop.prices")
                    .hasMessageContaining("column=p")
                    .hasMessageContaining("value=NaN");
        }
    }

    @Test
    void shouldPublishWholeTransactionsInCommitOrderWhenSessionsInterleave() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.orders (id int PRIMARY KEY, note text)",
                        "ALTER TABLE shop.orders REPLICA IDENTITY FULL");
        try (PgRunningFetcher running = fetcher(db);
                Connection a = POSTGRES.server().connect(db);
                Connection b = POSTGRES.server().connect(db)) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            a.createStatement().execute("INSERT INTO shop.orders VALUES (1, 'a1')");
            b.createStatement().execute("INSERT INTO shop.orders VALUES (2, 'b1')");
            b.createStatement().execute("UPDATE shop.orders SET note = 'b2' WHERE id = 2");
            b.commit();
            a.createStatement().execute("INSERT INTO shop.orders VALUES (3, 'a2')");
            a.createStatement().execute("DELETE FROM shop.orders WHERE id = 1");
            a.commit();
            running.sink.awaitRowEvents(5);
            var transactions = running.sink.transactions();
            assertThat(transactions).hasSize(2);
            assertThat(transactions.get(0).scn()).isLessThan(transactions.get(1).scn());
            assertThat(transactions.get(0).rowEvents())
                    .extracting(ChangeEvent::operation)
                    .containsExactly(Operation.INSERT, Operation.UPDATE);
            assertThat(transactions.get(0).rowEvents().get(1).before()).containsExactly(2L, "b1");
            assertThat(transactions.get(1).rowEvents())
                    .extracting(e -> e.operation() + ":" + e.key()[0])
                    .containsExactly("INSERT:1", "INSERT:3", "DELETE:1");
            assertThat(transactions.get(1).rowEvents().get(2).before()).containsExactly(1L, "a1");
        }
    }

    @Test
    void shouldPublishALargeTransactionWholeWhenOneStatementWritesManyRows() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.lines (id int PRIMARY KEY, payload text)",
                        "ALTER TABLE shop.lines REPLICA IDENTITY FULL");
        try (PgRunningFetcher running = fetcher(db)) {
            POSTGRES.server()
                    .execute(
                            db,
                            "INSERT INTO shop.lines SELECT g, repeat('x', 100) FROM generate_series(1, 50000) g");
            running.sink.awaitRowEvents(50_000);
            assertThat(running.sink.transactions()).hasSize(1);
            assertThat(running.sink.transactions().get(0).rowEvents()).hasSize(50_000);
        }
    }

    @Test
    void shouldPublishANewSchemaVersionBeforeTheRowsWhenTheTableIsAltered() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.orders (id int PRIMARY KEY, total numeric(10,2))",
                        "ALTER TABLE shop.orders REPLICA IDENTITY FULL");
        try (PgRunningFetcher running = fetcher(db)) {
            POSTGRES.server()
                    .execute(
                            db,
                            "INSERT INTO shop.orders VALUES (1, 10.00)",
                            "ALTER TABLE shop.orders ADD COLUMN status text DEFAULT 'new'",
                            "INSERT INTO shop.orders VALUES (2, 20.00, 'paid')",
                            "UPDATE shop.orders SET total = 11.00 WHERE id = 1");
            running.sink.awaitRowEvents(3);
            var transactions = running.sink.transactions();
            assertThat(transactions).hasSize(4);
            assertThat(transactions.get(1).events().get(0).operation())
                    .isEqualTo(Operation.SCHEMA_CHANGE);
            assertThat(transactions.get(1).scn()).isEqualTo(transactions.get(2).scn() - 1);
            var changed = transactions.get(1).events().get(0).schema();
            assertThat(changed.version()).isEqualTo(2);
            assertThat(changed.column(2).name()).isEqualTo("status");
            assertThat(transactions.get(2).rowEvents().get(0).after())
                    .containsExactly(2L, new BigDecimal("20.00"), "paid");
            assertThat(transactions.get(3).rowEvents().get(0).before())
                    .containsExactly(1L, new BigDecimal("10.00"), "new");
            assertThat(transactions.get(0).rowEvents().get(0).schema().version()).isEqualTo(1);
        }
    }

    @Test
    void shouldResumeWithNothingLostOrRepeatedAndConfirmOnlyWhatIsDurable() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.orders (id int PRIMARY KEY)",
                        "ALTER TABLE shop.orders REPLICA IDENTITY FULL");
        var config = PgRunningFetcher.config(POSTGRES.server(), db, "postgres", db);
        List<CollectingSink.Published> first;
        try (PgRunningFetcher running = PgRunningFetcher.start(config, null)) {
            for (int id = 1; id <= 5; id++) {
                POSTGRES.server().execute(db, "INSERT INTO shop.orders VALUES (" + id + ")");
            }
            running.sink.awaitRowEvents(5);
            first = running.sink.transactions();
            running.sink.durable(first.get(1).resumePosition());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> first.get(1).resumePosition().equals(confirmedFlush(db)));
        }
        assertThat(confirmedFlush(db)).isEqualTo(first.get(1).resumePosition());
        try (PgRunningFetcher resumed =
                PgRunningFetcher.start(config, first.get(2).resumePosition())) {
            POSTGRES.server().execute(db, "INSERT INTO shop.orders VALUES (6)");
            resumed.sink.awaitRowEvents(3);
            var again = resumed.sink.transactions();
            assertThat(again)
                    .extracting(t -> t.rowEvents().get(0).after()[0])
                    .containsExactly(4L, 5L, 6L);
            assertThat(again.get(0).scn()).isEqualTo(first.get(3).scn());
            assertThat(again.get(1).scn()).isEqualTo(first.get(4).scn());
        }
    }

    @Test
    void shouldAdvanceTheTimelineWithHeartbeatsWhenTheSourceIsIdle() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.orders (id int PRIMARY KEY)",
                        "ALTER TABLE shop.orders REPLICA IDENTITY FULL");
        try (PgRunningFetcher running = fetcher(db)) {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(
                            () ->
                                    running.sink.all().stream()
                                                    .filter(CollectingSink.Published::isHeartbeat)
                                                    .count()
                                            >= 2);
            var heartbeat = running.sink.all().get(0);
            assertThat(heartbeat.scn()).isEqualTo(running.fetcher.position().scn() - 1);
        }
    }

    @Test
    void shouldConfirmTheSlotUpToTheDurablePointWhenOnlyUncapturedTablesAreWritten()
            throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.orders (id int PRIMARY KEY)",
                        "ALTER TABLE shop.orders REPLICA IDENTITY FULL",
                        "CREATE TABLE public.noise (id serial PRIMARY KEY, pad text)");
        var config = PgRunningFetcher.config(POSTGRES.server(), db, "postgres", db);
        Lsn heartbeatPosition;
        try (PgRunningFetcher running = PgRunningFetcher.start(config, null)) {
            Lsn created = Lsn.parse(confirmedFlush(db));
            // Writes the relay does not capture: pgoutput sends none of them, the WAL grows.
            POSTGRES.server()
                    .execute(
                            db,
                            "INSERT INTO public.noise (pad) SELECT repeat('x', 500)"
                                    + " FROM generate_series(1, 20000)");
            Lsn written = Lsn.parse(currentWalLsn(db));
            CollectingSink.Published heartbeat =
                    running.sink.awaitPublished(
                            t ->
                                    t.isHeartbeat()
                                            && Lsn.parse(t.resumePosition()).compareTo(written)
                                                    >= 0);
            heartbeatPosition = Lsn.parse(heartbeat.resumePosition());
            assertThat(heartbeat.scn()).isEqualTo(heartbeatPosition.value() - 2);
            // Nothing is durable yet: the slot is not confirmed past its start.
            assertThat(Lsn.parse(confirmedFlush(db))).isEqualTo(created);
            running.sink.durable(heartbeat.resumePosition());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> heartbeat.resumePosition().equals(confirmedFlush(db)));
            // Never past the durable point, whatever the server's keepalives say.
            POSTGRES.server().execute(db, "INSERT INTO public.noise (pad) VALUES ('more')");
            running.sink.awaitPublished(
                    t ->
                            t.isHeartbeat()
                                    && Lsn.parse(t.resumePosition()).compareTo(heartbeatPosition)
                                            > 0);
            assertThat(confirmedFlush(db)).isEqualTo(heartbeat.resumePosition());
        }
        POSTGRES.server().execute(db, "INSERT INTO shop.orders VALUES (1)");
        try (PgRunningFetcher resumed =
                PgRunningFetcher.start(config, heartbeatPosition.toString())) {
            resumed.sink.awaitRowEvents(1);
            assertThat(resumed.sink.rowEvents()).extracting(e -> e.after()[0]).containsExactly(1L);
        }
    }

    @Test
    void shouldStartWithTheShapeAtTheSlotsConsistentPointWhenATableChangesRightAfterIt()
            throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.items (id int PRIMARY KEY, a text)",
                        "ALTER TABLE shop.items REPLICA IDENTITY FULL");
        var config = PgRunningFetcher.config(POSTGRES.server(), db, "postgres", db);
        // The race forced at its worst: the slot exists, its start point is fixed, and before the
        // fetcher reads the catalog a row is written in the old shape and then the table altered.
        // A plain catalog read now would start at (id, a, b) and show the first row behind a
        // schema change back to (id, a).
        PgOutputFetcher.SlotCreatedHook alterBetween =
                () ->
                        POSTGRES.server()
                                .execute(
                                        db,
                                        "INSERT INTO shop.items VALUES (1, 'old shape')",
                                        "ALTER TABLE shop.items ADD b int",
                                        "INSERT INTO shop.items VALUES (2, 'new shape', 7)");
        try (PgRunningFetcher running = PgRunningFetcher.start(config, null, alterBetween)) {
            running.sink.awaitRowEvents(2);
            var start = running.sink.rowEvents().get(0).schema();
            assertThat(start.version()).isEqualTo(1);
            assertThat(start.columns()).extracting(c -> c.name()).containsExactly("id", "a");
            assertThat(start.keyColumns()).containsExactly("id");
            var transactions = running.sink.transactions();
            assertThat(transactions)
                    .extracting(t -> t.events().get(0).operation())
                    .containsExactly(Operation.INSERT, Operation.SCHEMA_CHANGE, Operation.INSERT);
            var rows = running.sink.rowEvents();
            assertThat(rows.get(0).schema().version()).isEqualTo(1);
            assertThat(rows.get(0).after()).containsExactly(1L, "old shape");
            var changed = transactions.get(1).events().get(0).schema();
            assertThat(changed.version()).isEqualTo(2);
            assertThat(changed.columns()).extracting(c -> c.name()).containsExactly("id", "a", "b");
            assertThat(rows.get(1).schema().version()).isEqualTo(2);
            assertThat(rows.get(1).after()).containsExactly(2L, "new shape", 7L);
        }
    }

    @Test
    void shouldStartWithTheShapeAtTheSlotsConsistentPointWhenATableChangesWhileItIsCreated()
            throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.items (id int PRIMARY KEY, a text)",
                        "ALTER TABLE shop.items REPLICA IDENTITY FULL",
                        "CREATE PUBLICATION changegrid FOR TABLE shop.items");
        var config = PgRunningFetcher.config(POSTGRES.server(), db, "postgres", db);
        var executor = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (Connection alter = POSTGRES.server().connect(db)) {
            // A schema change running when the fetcher starts: the checks see (id, a); the new
            // slot's consistent point waits for the change to commit, so the slot's first rows
            // have (id, a, b).
            alter.setAutoCommit(false);
            try (var statement = alter.createStatement()) {
                statement.execute("ALTER TABLE shop.items ADD b int");
            }
            var starting = executor.submit(() -> PgRunningFetcher.start(config, null));
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> walSendersWaitingOnALock(db) > 0);
            alter.commit();
            try (PgRunningFetcher running =
                    starting.get(30, java.util.concurrent.TimeUnit.SECONDS)) {
                var start = running.fetcher.sourceSchemas().latest("shop", "items").orElseThrow();
                assertThat(start.version()).isEqualTo(1);
                assertThat(start.columns())
                        .extracting(c -> c.name())
                        .containsExactly("id", "a", "b");
                POSTGRES.server().execute(db, "INSERT INTO shop.items VALUES (1, 'x', 2)");
                running.sink.awaitRowEvents(1);
                assertThat(running.sink.all().stream().flatMap(t -> t.events().stream()))
                        .noneMatch(e -> e.operation() == Operation.SCHEMA_CHANGE);
                assertThat(running.sink.rowEvents().get(0).schema().version()).isEqualTo(1);
                assertThat(running.fetcher.sourceSchemas().allVersions()).hasSize(1);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    /** Walsenders of the database waiting on a lock: a slot waiting for its consistent point. */
    private static int walSendersWaitingOnALock(String db) throws SQLException {
        try (var connection = POSTGRES.server().connect("postgres");
                var statement =
                        connection.prepareStatement(
                                "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'walsender'"
                                        + " AND datname = ? AND wait_event_type = 'Lock'")) {
            statement.setString(1, db);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private static String currentWalLsn(String db) throws SQLException {
        try (var connection = POSTGRES.server().connect(db);
                var statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT pg_current_wal_lsn()::text")) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static String confirmedFlush(String slot) throws SQLException {
        try (var connection = POSTGRES.server().connect("postgres");
                var statement =
                        connection.prepareStatement(
                                "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = ?")) {
            statement.setString(1, slot);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }
}
