package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.NoPrimaryKeyException;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MariaDB snapshot reader against a private {@code mariadbd}: its rows are the values the
 * binlog fetcher publishes for the same rows, chunks walk a table in key order (composite keys
 * too), and its watermark orders the timeline's SCNs.
 */
class BinlogSnapshotReaderIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path state;

    @Test
    void shouldReadTheValuesTheFetcherPublishesWhenRowsAreCopied() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE IF NOT EXISTS types",
                        "CREATE TABLE types.t (id INT PRIMARY KEY, u BIGINT UNSIGNED, d DECIMAL(12,4),"
                                + " s VARCHAR(20), b VARBINARY(8), dt DATETIME(6), ts TIMESTAMP(6) NULL,"
                                + " da DATE, ti TIME(3), bits BIT(10), e ENUM('x','y'), f DOUBLE, n INT)");
        BinlogFetcherConfig config = config("types.*");
        try (RunningFetcher running = RunningFetcher.start(config, state, null);
                BinlogSnapshotReader reader = new BinlogSnapshotReader(config)) {
            MARIADB.server()
                    .execute(
                            "INSERT INTO types.t VALUES (1, 18446744073709551615, -12.3400, 'héllo',"
                                    + " x'00ff', '2024-02-29 23:59:59.123456', '2024-03-01 00:00:01.5',"
                                    + " '2024-02-29', '-838:59:59.5', b'1000000001', 'y', 1.5, NULL)",
                            "INSERT INTO types.t (id) VALUES (2)");
            running.sink.awaitRowEvents(2);
            List<ChangeEvent> published = running.sink.rowEvents();
            TableSchema schema = published.get(0).schema();

            List<Object[]> rows = reader.readChunk(schema, null, 10);

            assertThat(rows).hasSize(2);
            for (int r = 0; r < 2; r++) {
                assertThat(rows.get(r)).as("row %d", r).containsExactly(published.get(r).after());
            }
        }
    }

    @Test
    void shouldWalkTheTableInKeyOrderWhenTheKeyIsComposite() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE IF NOT EXISTS walk",
                        "CREATE TABLE walk.lines (o INT, no INT, sku VARCHAR(10), PRIMARY KEY (o, no))");
        StringBuilder insert = new StringBuilder("INSERT INTO walk.lines VALUES ");
        for (int o = 1; o <= 7; o++) {
            for (int no = 1; no <= 3; no++) {
                insert.append(o == 1 && no == 1 ? "" : ",")
                        .append("(")
                        .append(o)
                        .append(",")
                        .append(no)
                        .append(",'s")
                        .append(o * 10 + no)
                        .append("')");
            }
        }
        MARIADB.server().execute(insert.toString());
        BinlogFetcherConfig config = config("walk.*");
        try (RunningFetcher running = RunningFetcher.start(config, state, null);
                BinlogSnapshotReader reader = new BinlogSnapshotReader(config)) {
            TableSchema schema = running.fetcher.sourceSchemas().latest("walk", "lines").get();

            List<String> copied = new ArrayList<>();
            Object[] after = null;
            int chunks = 0;
            while (true) {
                List<Object[]> chunk = reader.readChunk(schema, after, 4);
                chunks++;
                chunk.forEach(row -> copied.add(row[0] + "/" + row[1]));
                if (chunk.size() < 4) {
                    break;
                }
                Object[] last = chunk.get(chunk.size() - 1);
                after = new Object[] {last[0], last[1]};
            }

            assertThat(copied).hasSize(21).doesNotHaveDuplicates();
            assertThat(copied.subList(0, 5)).containsExactly("1/1", "1/2", "1/3", "2/1", "2/2");
            assertThat(copied.get(20)).isEqualTo("7/3");
            assertThat(chunks).isEqualTo(6);
        }
    }

    @Test
    void shouldBoundTheTimelineWhenTheWatermarkIsTaken() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE IF NOT EXISTS marks",
                        "CREATE TABLE marks.t (id INT PRIMARY KEY)");
        BinlogFetcherConfig config = config("marks.*");
        try (RunningFetcher running = RunningFetcher.start(config, state, null);
                BinlogSnapshotReader reader = new BinlogSnapshotReader(config)) {
            MARIADB.server().execute("INSERT INTO marks.t VALUES (1)");
            long between = reader.watermark();
            MARIADB.server().execute("INSERT INTO marks.t VALUES (2)");
            long after = reader.watermark();
            running.sink.awaitRowEvents(2);

            List<Long> scns =
                    running.sink.transactions().stream()
                            .filter(t -> !t.rowEvents().isEmpty())
                            .map(CollectingSink.Published::scn)
                            .toList();
            assertThat(scns.get(0)).isLessThan(between);
            assertThat(scns.get(1)).isGreaterThanOrEqualTo(between).isLessThan(after);
            assertThat(running.sink.rowEvents())
                    .extracting(ChangeEvent::operation)
                    .containsOnly(Operation.INSERT);
        }
    }

    @Test
    void shouldRefuseByNameWhenTheTableHasNoPrimaryKey() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE IF NOT EXISTS nokey",
                        "CREATE TABLE nokey.audit_log (line VARCHAR(80))");
        BinlogFetcherConfig config = config("nokey.*");
        try (RunningFetcher running = RunningFetcher.start(config, state, null);
                BinlogSnapshotReader reader = new BinlogSnapshotReader(config)) {
            TableSchema schema = running.fetcher.sourceSchemas().latest("nokey", "audit_log").get();

            assertThatThrownBy(() -> reader.readChunk(schema, null, 10))
                    .isInstanceOf(NoPrimaryKeyException.class)
                    .hasMessageStartingWith("snapshot needs a primary key: table=nokey.audit_log");
        }
    }

    private static BinlogFetcherConfig config(String pattern) {
        return RunningFetcher.config(
                MARIADB.server(),
                TableFilter.of(List.of(pattern), List.of()),
                new StartPosition.Current(),
                64 << 20);
    }
}
