package io.changegrid.fetchers.mysql.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.history.CorruptHistoryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaHistoryTest {

    private static final ServerDialect DIALECT = ServerDialect.mariaDb("utf8mb4");

    @TempDir Path dir;

    private final SchemaRegistry registry = new SchemaRegistry();

    /** A server with one database and one table, snapshot at SCN 100. */
    private SchemaTracker tracker() {
        return SchemaTracker.fromSnapshot(
                new SchemaSnapshot(
                        DIALECT,
                        List.of(new DatabaseDefinition("shop", "latin1")),
                        List.of(
                                new TableDefinition(
                                        "shop",
                                        "orders",
                                        List.of(
                                                MySqlColumnTypes.column(
                                                        "id", "int(11)", null, false)),
                                        List.of("id"),
                                        "latin1")),
                        List.of(new TableName("shop", "v"))),
                registry);
    }

    /** Applies and persists DDL at SCN 200, 300, 400, ... */
    private static void play(
            SchemaTracker tracker, SchemaHistory history, long firstScn, String... ddl)
            throws IOException {
        long scn = firstScn;
        for (String sql : ddl) {
            DdlOutcome outcome = tracker.apply("shop", sql);
            assertThat(outcome).as(sql).isInstanceOf(DdlOutcome.Applied.class);
            history.append(scn, sql, (DdlOutcome.Applied) outcome);
            scn += 100;
        }
    }

    private static final String[] DDL = {
        "ALTER TABLE orders ADD note VARCHAR(10)", // 200
        "CREATE TABLE lines (id INT PRIMARY KEY, o INT)", // 300
        "RENAME TABLE orders TO orders_old, lines TO orders", // 400
        "ALTER DATABASE shop CHARACTER SET utf8mb4", // 500
        "ALTER TABLE orders CHARACTER SET ascii", // 600
        "DROP TABLE orders_old", // 700
        "CREATE VIEW w AS SELECT 1", // 800
        "CREATE DATABASE more", // 900
        "DROP DATABASE more", // 1000
    };

    @Test
    void shouldRebuildTheSameStateWhenLoadedAfterTheLastEntry() throws IOException {
        Path file = dir.resolve("schema-history.jsonl");
        SchemaTracker tracker = tracker();
        try (SchemaHistory history = SchemaHistory.create(file, 100, tracker)) {
            play(tracker, history, 200, DDL);
            assertThat(history.lastScn()).isEqualTo(1000);
        }

        SchemaHistory.Loaded loaded = SchemaHistory.load(file, Long.MAX_VALUE);
        loaded.history().close();

        assertThat(loaded.scn()).isEqualTo(1000);
        assertThat(loaded.tracker().snapshot()).isEqualTo(tracker.snapshot());
        assertThat(loaded.tracker().registry().allVersions()).isEqualTo(registry.allVersions());
        assertThat(loaded.tracker().registry().latest("shop", "orders"))
                .isEqualTo(registry.latest("shop", "orders"));
        assertThat(loaded.tracker().registry().latest("shop", "orders_old")).isEmpty();
        assertThat(loaded.tracker().snapshot().tables())
                .extracting(TableDefinition::charset)
                .containsExactly("ascii");
    }

    @Test
    void shouldRebuildAnOlderStateAndCutLaterEntriesWhenLoadedAtAnOlderScn() throws IOException {
        Path file = dir.resolve("h.jsonl");
        SchemaTracker tracker = tracker();
        try (SchemaHistory history = SchemaHistory.create(file, 100, tracker)) {
            play(tracker, history, 200, DDL);
        }
        List<TableSchema> allVersions = registry.allVersions();

        SchemaRegistry replayRegistry = new SchemaRegistry();
        SchemaHistory.Loaded loaded = SchemaHistory.load(file, 399, replayRegistry);

        assertThat(loaded.scn()).isEqualTo(300);
        assertThat(loaded.tracker().table("shop", "orders").orElseThrow().columnCount())
                .isEqualTo(2);
        assertThat(loaded.tracker().table("shop", "lines")).isPresent();
        assertThat(Files.readAllLines(file)).hasSize(3);
        // The fetcher re-reads the later DDL from the binlog: same ids and versions again.
        try (SchemaHistory history = loaded.history()) {
            play(loaded.tracker(), history, 400, Arrays.copyOfRange(DDL, 2, DDL.length));
        }
        assertThat(replayRegistry.allVersions()).isEqualTo(allVersions);
        assertThat(
                        SchemaHistory.load(file, Long.MAX_VALUE, new SchemaRegistry())
                                .tracker()
                                .snapshot())
                .isEqualTo(tracker.snapshot());
    }

    @Test
    void shouldDropATornLastLineWhenACrashInterruptedTheAppend() throws IOException {
        Path file = dir.resolve("h.jsonl");
        SchemaTracker tracker = tracker();
        try (SchemaHistory history = SchemaHistory.create(file, 100, tracker)) {
            play(tracker, history, 200, DDL[0]);
        }
        long intact = Files.size(file);
        Files.write(
                file,
                "{\"scn\":300,\"kind\":\"ddl\",\"ddl\":\"CREATE TA"
                        .getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);

        SchemaHistory.Loaded loaded =
                SchemaHistory.load(file, Long.MAX_VALUE, new SchemaRegistry());
        try (SchemaHistory history = loaded.history()) {
            assertThat(loaded.scn()).isEqualTo(200);
            assertThat(Files.size(file)).isEqualTo(intact);
            play(loaded.tracker(), history, 300, DDL[1]);
        }

        assertThat(Files.readAllLines(file)).hasSize(3);
        assertThat(
                        SchemaHistory.load(file, Long.MAX_VALUE, new SchemaRegistry())
                                .tracker()
                                .table("shop", "lines"))
                .isPresent();
    }

    @Test
    void shouldFailNamingFileAndLineWhenALineInTheMiddleIsCorrupt() throws IOException {
        Path file = dir.resolve("h.jsonl");
        SchemaTracker tracker = tracker();
        try (SchemaHistory history = SchemaHistory.create(file, 100, tracker)) {
            play(tracker, history, 200, DDL[0], DDL[1]);
        }
        List<String> lines = Files.readAllLines(file);
        Files.write(file, List.of(lines.get(0), lines.get(1).substring(0, 30), lines.get(2)));

        assertThatThrownBy(() -> SchemaHistory.load(file, Long.MAX_VALUE))
                .isInstanceOf(CorruptHistoryException.class)
                .hasMessageContaining("corrupt schema history line: file=" + file + ", line=2");
    }

    @Test
    void shouldFailWhenACompleteLastLineIsNotAnEntry() throws IOException {
        Path file = dir.resolve("h.jsonl");
        SchemaHistory.create(file, 100, tracker()).close();
        Files.write(
                file,
                "{\"scn\":200,\"kind\":\"ddl\",\"ops\":[{\"op\":\"teleport\"}]}\n"
                        .getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);

        assertThatThrownBy(() -> SchemaHistory.load(file, Long.MAX_VALUE))
                .isInstanceOf(CorruptHistoryException.class)
                .hasMessageContaining("line=2")
                .hasMessageContaining("unknown operation: op=teleport");
    }

    @Test
    void shouldFailWhenTheHistoryHasNoSnapshotAtOrBeforeTheScn() throws IOException {
        Path empty = dir.resolve("empty.jsonl");
        Files.createFile(empty);
        Path late = dir.resolve("late.jsonl");
        SchemaHistory.create(late, 100, tracker()).close();
        Path headless = dir.resolve("headless.jsonl");
        Files.write(headless, List.of("{\"scn\":200,\"kind\":\"ddl\",\"ddl\":\"x\",\"ops\":[]}"));

        assertThatThrownBy(() -> SchemaHistory.load(empty, 1000))
                .hasMessageContaining("has no snapshot");
        assertThatThrownBy(() -> SchemaHistory.load(late, 99))
                .hasMessageContaining(
                        "starts after the requested position: file="
                                + late
                                + ", snapshotScn=100, upToScn=99");
        assertThatThrownBy(() -> SchemaHistory.load(headless, 1000))
                .hasMessageContaining("does not start with a snapshot");
    }

    @Test
    void shouldRefuseWhenScnGoesBackOrTheFileExists() throws IOException {
        Path file = dir.resolve("h.jsonl");
        SchemaTracker tracker = tracker();
        try (SchemaHistory history = SchemaHistory.create(file, 100, tracker)) {
            play(tracker, history, 200, DDL[0]);
            DdlOutcome.Applied next = (DdlOutcome.Applied) tracker.apply("shop", DDL[1]);

            assertThatThrownBy(() -> history.append(150, DDL[1], next))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("scn=150, lastScn=200");
        }
        assertThatThrownBy(() -> SchemaHistory.create(file, 100, tracker))
                .isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void shouldWriteNothingWhenTheOutcomeChangesNothingPersistent() throws IOException {
        Path file = dir.resolve("h.jsonl");
        SchemaTracker tracker = tracker();
        try (SchemaHistory history = SchemaHistory.create(file, 100, tracker)) {
            history.append(
                    200,
                    "TRUNCATE orders",
                    (DdlOutcome.Applied) tracker.apply("shop", "TRUNCATE orders"));
        }

        assertThat(Files.readAllLines(file)).hasSize(1);
    }
}
