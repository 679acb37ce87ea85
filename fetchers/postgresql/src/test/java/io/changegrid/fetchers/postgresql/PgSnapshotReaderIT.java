package io.changegrid.fetchers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.NoPrimaryKeyException;
import io.changegrid.testkit.PostgresServerExtension;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The PostgreSQL snapshot reader against a private PostgreSQL with logical decoding: its rows are
 * the values pgoutput carries for the same rows (every mapped type), chunks walk a composite key in
 * order, and its watermark orders the timeline's SCNs (commit LSNs).
 */
class PgSnapshotReaderIT {

    @RegisterExtension
    static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static String database(String... ddl) throws SQLException {
        String name = "snap" + DATABASES.incrementAndGet();
        POSTGRES.server().createDatabase(name);
        POSTGRES.server().execute(name, "CREATE SCHEMA shop");
        POSTGRES.server().execute(name, ddl);
        return name;
    }

    @AfterEach
    void dropIdleSlots() throws SQLException {
        POSTGRES.server()
                .execute(
                        "postgres",
                        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                                + " WHERE NOT active");
    }

    private static PostgresFetcherConfig config(String database) {
        return PgRunningFetcher.config(POSTGRES.server(), database, "postgres", database);
    }

    @Test
    void shouldReadTheValuesPgoutputCarriesWhenRowsAreCopied() throws Exception {
        String db =
                database(
                        "CREATE TYPE shop.mood AS ENUM ('sad', 'happy')",
                        "CREATE TABLE shop.types (id int PRIMARY KEY, i2 smallint, i8 bigint, n numeric(20,5),"
                                + " f4 real, f8 double precision, b boolean, t text, ch char(5), by bytea, d date,"
                                + " tm time(6), ts timestamp(6), tstz timestamptz, iv interval, u uuid, j json,"
                                + " jb jsonb, e shop.mood, bt bit(5), vb varbit(8))",
                        "ALTER TABLE shop.types REPLICA IDENTITY FULL");
        PostgresFetcherConfig config = config(db);
        try (PgRunningFetcher running = PgRunningFetcher.start(config, null);
                PgSnapshotReader reader = new PgSnapshotReader(config)) {
            POSTGRES.server()
                    .execute(
                            db,
                            "INSERT INTO shop.types VALUES (1, -32768, 9223372036854775807, 123456789012345.12345,"
                                    + " 3.4028235e38, -1.7976931348623157e308, true, 'ünï ☃ 😀', 'ab',"
                                    + " '\\x00ff10', '2024-02-29', '23:59:59.999999', '2024-02-29 23:59:59.123456',"
                                    + " '2024-02-29 23:59:59.123456+05:30', '1 year 2 mons 3 days 04:05:06.5',"
                                    + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{\"a\": [1, 2]}', '{\"b\": 1, \"a\": 2}',"
                                    + " 'happy', B'10110', B'101')",
                            "INSERT INTO shop.types (id) VALUES (2)",
                            "INSERT INTO shop.types (id, f4, f8, d) VALUES (3, 'Infinity', 'NaN', '0044-03-15 BC')");
            running.sink.awaitRowEvents(3);
            List<ChangeEvent> published = running.sink.rowEvents();
            TableSchema schema = published.get(0).schema();

            List<Object[]> rows = reader.readChunk(schema, null, 10);

            assertThat(rows).hasSize(3);
            for (int r = 0; r < 3; r++) {
                assertThat(rows.get(r)).as("row %d", r).containsExactly(published.get(r).after());
            }
        }
    }

    @Test
    void shouldWalkTheTableInKeyOrderWhenTheKeyIsComposite() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.lines (o bigint, sku text, qty int, PRIMARY KEY (o, sku))",
                        "INSERT INTO shop.lines SELECT o, 'sku-' || s, o * s FROM generate_series(1, 9) o,"
                                + " generate_series(1, 5) s",
                        "ALTER TABLE shop.lines REPLICA IDENTITY FULL");
        PostgresFetcherConfig config = config(db);
        try (PgRunningFetcher running = PgRunningFetcher.start(config, null);
                PgSnapshotReader reader = new PgSnapshotReader(config)) {
            TableSchema schema = running.fetcher.sourceSchemas().latest("shop", "lines").get();

            List<String> copied = new ArrayList<>();
            Object[] after = null;
            while (true) {
                List<Object[]> chunk = reader.readChunk(schema, after, 7);
                chunk.forEach(row -> copied.add(row[0] + "/" + row[1]));
                if (chunk.size() < 7) {
                    break;
                }
                Object[] last = chunk.get(chunk.size() - 1);
                after = new Object[] {last[0], last[1]};
            }

            assertThat(copied).hasSize(45).doesNotHaveDuplicates();
            assertThat(copied.subList(0, 6))
                    .containsExactly(
                            "1/sku-1", "1/sku-2", "1/sku-3", "1/sku-4", "1/sku-5", "2/sku-1");
        }
    }

    @Test
    void shouldBoundTheTimelineWhenTheWatermarkIsTaken() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.t (id int PRIMARY KEY)",
                        "ALTER TABLE shop.t REPLICA IDENTITY FULL");
        PostgresFetcherConfig config = config(db);
        try (PgRunningFetcher running = PgRunningFetcher.start(config, null);
                PgSnapshotReader reader = new PgSnapshotReader(config)) {
            POSTGRES.server().execute(db, "INSERT INTO shop.t VALUES (1)");
            long between = reader.watermark();
            POSTGRES.server().execute(db, "INSERT INTO shop.t VALUES (2)");
            long after = reader.watermark();
            running.sink.awaitRowEvents(2);

            List<Long> scns =
                    running.sink.transactions().stream()
                            .filter(t -> !t.rowEvents().isEmpty())
                            .map(CollectingSink.Published::scn)
                            .toList();
            assertThat(scns.get(0)).isLessThan(between);
            assertThat(scns.get(1)).isGreaterThanOrEqualTo(between).isLessThan(after);
        }
    }

    @Test
    void shouldRefuseByNameWhenTheTableHasNoPrimaryKey() throws Exception {
        String db =
                database(
                        "CREATE TABLE shop.audit_log (line text)",
                        "ALTER TABLE shop.audit_log REPLICA IDENTITY FULL");
        PostgresFetcherConfig config = config(db);
        try (PgRunningFetcher running = PgRunningFetcher.start(config, null);
                PgSnapshotReader reader = new PgSnapshotReader(config)) {
            TableSchema schema = running.fetcher.sourceSchemas().latest("shop", "audit_log").get();

            assertThatThrownBy(() -> reader.readChunk(schema, null, 10))
                    .isInstanceOf(NoPrimaryKeyException.class)
                    .hasMessageStartingWith("snapshot needs a primary key: table=shop.audit_log");
        }
    }
}
