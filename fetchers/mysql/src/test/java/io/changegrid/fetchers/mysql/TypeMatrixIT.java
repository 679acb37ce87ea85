package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.json.EventJsonReader;
import io.changegrid.events.json.EventJsonWriter;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.mysql.MariaDbTypeMatrix.TypeCase;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The all-types matrix at the fetcher: a table with a column of every MariaDB type ({@link
 * MariaDbTypeMatrix}), created before the fetcher starts so that its schema comes from the start
 * snapshot, gets rows holding each type's edge values and NULL; then every column is updated on its
 * own, the key is changed and the rows are deleted. After each step every published image is
 * compared column by column with the source (and each UPDATE's before image with the image before
 * it), and every event survives its JSON form unchanged.
 */
class TypeMatrixIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final String TABLE = "matrix.all_types";
    private static final String SESSION = "SET SESSION sql_mode = '', SESSION time_zone = '+00:00'";
    private static final JsonFactory JSON = new JsonFactory();

    @TempDir Path state;

    @BeforeAll
    static void createSchema() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE matrix",
                        MariaDbTypeMatrix.createTable(TABLE),
                        "CREATE TABLE matrix.compressed (id INT PRIMARY KEY,"
                                + " body BLOB COMPRESSED, note VARCHAR(200) COMPRESSED)",
                        "CREATE TABLE matrix.plain (id INT PRIMARY KEY, note VARCHAR(20))");
    }

    @Test
    void shouldPublishEveryTypeExactlyWhenRowsAreInsertedUpdatedRekeyedAndDeleted()
            throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        RunningFetcher.config(
                                MARIADB.server(),
                                TableFilter.of(List.of(TABLE), List.of()),
                                new StartPosition.Current(),
                                64 << 20),
                        state,
                        null)) {
            awaitConnected(running);
            TableSchema schema =
                    running.fetcher.publishedSchemas().latest("matrix", "all_types").orElseThrow();
            assertThat(schema.column(schema.indexOf("c_enum")).sourceType())
                    .contains("'\uD83D\uDE00large'", "'a?b'");
            Map<Long, Object[]> images = new HashMap<>();
            int rows = MariaDbTypeMatrix.rows();
            int seen = 0;

            List<String> inserts = new ArrayList<>(List.of(SESSION));
            for (int r = 0; r < rows; r++) {
                StringBuilder sql = new StringBuilder("INSERT INTO " + TABLE + " VALUES (" + r);
                for (TypeCase c : MariaDbTypeMatrix.CASES) {
                    sql.append(", ").append(MariaDbTypeMatrix.value(c, r));
                }
                inserts.add(sql.append(')').toString());
            }
            MARIADB.server().execute(inserts.toArray(String[]::new));
            seen = check(running, seen, rows, Operation.INSERT, images);

            for (TypeCase c : MariaDbTypeMatrix.CASES) {
                // One statement per row: CASE would have to reconcile the values' collations.
                List<String> updates = new ArrayList<>(List.of(SESSION));
                for (int r = 0; r < rows; r++) {
                    updates.add(
                            "UPDATE "
                                    + TABLE
                                    + " SET `"
                                    + c.name()
                                    + "` = "
                                    + MariaDbTypeMatrix.value(c, r + 1)
                                    + " WHERE id = "
                                    + r);
                }
                MARIADB.server().execute(updates.toArray(String[]::new));
                seen = check(running, seen, rows, Operation.UPDATE, images);
            }

            MARIADB.server().execute(SESSION, "UPDATE " + TABLE + " SET id = id + 1000");
            seen = check(running, seen, rows, Operation.UPDATE, images);

            MARIADB.server().execute("DELETE FROM " + TABLE);
            check(running, seen, rows, Operation.DELETE, images);
            assertThat(images).isEmpty();
            assertThat(running.failure()).isNull();
        }
    }

    @Test
    void shouldKeepRunningWhenATableItExcludesHasCompressedColumns() throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(
                        RunningFetcher.config(
                                MARIADB.server(),
                                TableFilter.of(List.of("matrix.*"), List.of("matrix.compressed")),
                                new StartPosition.Current(),
                                64 << 20),
                        state,
                        null)) {
            awaitConnected(running);
            MARIADB.server()
                    .execute(
                            "INSERT INTO matrix.compressed VALUES (1, REPEAT('a', 5000), 'x')",
                            "INSERT INTO matrix.plain VALUES (1, 'after')",
                            "UPDATE matrix.compressed SET note = REPEAT('b', 150)",
                            "INSERT INTO matrix.plain VALUES (2, 'later')");
            awaitRowEvents(running, 2);
            assertThat(running.sink.rowEvents())
                    .extracting(e -> e.schema().table(), e -> e.after()[1])
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("plain", "after"),
                            org.assertj.core.groups.Tuple.tuple("plain", "later"));
            assertThat(running.failure()).isNull();
        }
    }

    /**
     * Waits for {@code count} more events of {@code op}, checks each against the image before it
     * and its JSON form, and the latest images against the source.
     */
    private static int check(
            RunningFetcher running, int seen, int count, Operation op, Map<Long, Object[]> images)
            throws Exception {
        awaitRowEvents(running, seen + count);
        List<ChangeEvent> events = running.sink.rowEvents();
        assertThat(events).hasSize(seen + count);
        EventJsonReader json = new EventJsonReader(running.fetcher.publishedSchemas());
        for (ChangeEvent event : events.subList(seen, seen + count)) {
            assertThat(event.operation()).isEqualTo(op);
            assertThat(json.read(toJson(event))).isEqualTo(event);
            if (event.before() != null) {
                Object[] previous = images.remove((Long) event.before()[0]);
                assertThat(previous).as("image before the change").isNotNull();
                assertThat(event.before()).containsExactly(previous);
            }
            if (event.after() != null) {
                images.put((Long) event.after()[0], event.after());
            }
        }
        compareWithSource(events.get(seen).schema(), images);
        return seen + count;
    }

    /** Every column of every row as the source has it, against the latest published image. */
    private static void compareWithSource(TableSchema schema, Map<Long, Object[]> images)
            throws Exception {
        int found = 0;
        try (Connection connection = MARIADB.server().connect();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(MariaDbTypeMatrix.selectCanonical(TABLE))) {
            while (rs.next()) {
                found++;
                long id = rs.getLong(1);
                Object[] image = images.get(id);
                assertThat(image).as("published image of row id=%d", id).isNotNull();
                for (int i = 0; i < MariaDbTypeMatrix.CASES.size(); i++) {
                    TypeCase c = MariaDbTypeMatrix.CASES.get(i);
                    int column = schema.indexOf(c.name());
                    String source = rs.getString(i + 2);
                    Object value = image[column];
                    assertThat(c.check().matches(source, value, schema.column(column)))
                            .as(
                                    "row id=%d, column=%s, source=%s, published=%s",
                                    id,
                                    c.name(),
                                    abbreviate(source),
                                    abbreviate(CellText.of(value)))
                            .isTrue();
                }
            }
        }
        assertThat(found).isEqualTo(images.size());
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }

    private static String toJson(ChangeEvent event) throws Exception {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = JSON.createGenerator(text)) {
            EventJsonWriter.write(out, event);
        }
        return text.toString();
    }

    /** Waits for the events, failing at once with the fetcher's error should it stop. */
    private static void awaitRowEvents(RunningFetcher running, int count) {
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> running.sink.rowEvents().size() >= count || running.failure() != null);
        assertThat(running.failure()).isNull();
    }

    private static void awaitConnected(RunningFetcher running) {
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                running.sink.all().stream()
                                                .anyMatch(CollectingSink.Published::isHeartbeat)
                                        || running.failure() != null);
        assertThat(running.failure()).isNull();
    }
}
