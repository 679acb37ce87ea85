package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows changed by a foreign key's referential action are not in the binlog: the fetcher cannot
 * capture them, so it names the captured tables' keys that have such actions.
 */
class CascadingForeignKeysIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path state;

    @Test
    void shouldNameTheCapturedTablesKeysWithReferentialActionsAndOnlyThose() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE shop",
                        "CREATE DATABASE elsewhere",
                        "CREATE TABLE shop.orders (id INT PRIMARY KEY)",
                        "CREATE TABLE shop.items (id INT PRIMARY KEY, order_id INT, CONSTRAINT"
                                + " items_order FOREIGN KEY (order_id) REFERENCES shop.orders (id)"
                                + " ON DELETE CASCADE)",
                        "CREATE TABLE shop.notes (id INT PRIMARY KEY, order_id INT, CONSTRAINT"
                                + " notes_order FOREIGN KEY (order_id) REFERENCES shop.orders (id)"
                                + " ON UPDATE SET NULL)",
                        "CREATE TABLE shop.audits (id INT PRIMARY KEY, order_id INT, CONSTRAINT"
                                + " audits_order FOREIGN KEY (order_id) REFERENCES shop.orders (id))",
                        "CREATE TABLE elsewhere.copies (id INT PRIMARY KEY, order_id INT,"
                                + " CONSTRAINT copies_order FOREIGN KEY (order_id) REFERENCES"
                                + " shop.orders (id) ON DELETE CASCADE)");

        try (Connection connection =
                DriverManager.getConnection(
                        MARIADB.server().jdbcUrl(""),
                        MARIADB.server().user(),
                        MARIADB.server().password())) {
            assertThat(
                            CascadingForeignKeys.of(
                                    connection, TableFilter.of(List.of("shop.*"), List.of())))
                    .containsExactly(
                            "shop.items(items_order) -> shop.orders ON DELETE CASCADE",
                            "shop.notes(notes_order) -> shop.orders ON UPDATE SET NULL");
            assertThat(CascadingForeignKeys.of(connection, TableFilter.all()))
                    .containsExactly(
                            "elsewhere.copies(copies_order) -> shop.orders ON DELETE CASCADE",
                            "shop.items(items_order) -> shop.orders ON DELETE CASCADE",
                            "shop.notes(notes_order) -> shop.orders ON UPDATE SET NULL");
        }
    }

    @Test
    void shouldReceiveNoEventForTheRowsACascadeDeletes() throws Exception {
        MARIADB.server()
                .execute(
                        "CREATE DATABASE cascade_demo",
                        "CREATE TABLE cascade_demo.parents (id INT PRIMARY KEY)",
                        "CREATE TABLE cascade_demo.children (id INT PRIMARY KEY, parent_id INT,"
                                + " FOREIGN KEY (parent_id) REFERENCES cascade_demo.parents (id)"
                                + " ON DELETE CASCADE)",
                        "INSERT INTO cascade_demo.parents VALUES (1)",
                        "INSERT INTO cascade_demo.children VALUES (10, 1), (11, 1)");
        BinlogFetcherConfig config =
                RunningFetcher.config(
                        MARIADB.server(),
                        TableFilter.of(List.of("cascade_demo.*"), List.of()),
                        new StartPosition.Current(),
                        1 << 20);
        try (RunningFetcher fetcher = RunningFetcher.start(config, state, null)) {
            MARIADB.server()
                    .execute(
                            "DELETE FROM cascade_demo.parents WHERE id = 1",
                            "INSERT INTO cascade_demo.parents VALUES (2)");
            fetcher.sink.awaitRowEvents(2);

            List<ChangeEvent> events = fetcher.sink.rowEvents();
            assertThat(events)
                    .as(
                            "the parent's delete and the next insert; the children's deletes are missing")
                    .hasSize(2);
            assertThat(events).allSatisfy(e -> assertThat(e.schema().table()).isEqualTo("parents"));
            try (Connection connection = MARIADB.server().connect();
                    Statement statement = connection.createStatement();
                    ResultSet rows =
                            statement.executeQuery("SELECT COUNT(*) FROM cascade_demo.children")) {
                rows.next();
                assertThat(rows.getInt(1)).as("yet the source deleted them").isZero();
            }
        }
    }
}
