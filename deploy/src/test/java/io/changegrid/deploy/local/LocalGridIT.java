package io.changegrid.deploy.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.testkit.MariaDbExtension;
import io.changegrid.testkit.PostgresDatabaseExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The quickstart ({@link LocalGridMain}) for a short load over rows the source held before the grid
 * started: into the local PostgreSQL, whose tables end equal to the source's row by row (the rows
 * from before copied by the consumer's snapshot), with the summary's row-count check; and the
 * JSON-lines path when the target is unreachable or {@code none}.
 */
class LocalGridIT {

    @RegisterExtension static final MariaDbExtension SOURCE = new MariaDbExtension();

    /** Only for the server's address: the quickstart makes its own database next to this one. */
    @RegisterExtension
    static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();

    private static final String QUICKSTART_DATABASE = "changegrid_quickstart_it";
    private static final Pattern SNAPSHOT_LINE =
            Pattern.compile(
                    "snapshot: ([0-9,]+) rows that existed before the grid started copied"
                            + " as snapshot rows \\(complete\\)");

    @TempDir Path work;

    @AfterAll
    static void dropQuickstartDatabase() throws SQLException {
        POSTGRES.database()
                .execute("DROP DATABASE IF EXISTS " + QUICKSTART_DATABASE + " WITH (FORCE)");
    }

    /** Runs the grid with these options; its exit status and everything it printed. */
    private record Run(int exit, String output) {}

    private static Run run(String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        int exit;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            exit = new CommandLine(new LocalGridMain()).execute(args);
        } finally {
            System.setOut(original);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        original.println(output);
        return new Run(exit, output);
    }

    private String targetUrl() {
        return "jdbc:postgresql://"
                + POSTGRES.database().host()
                + ":"
                + POSTGRES.database().port()
                + "/"
                + QUICKSTART_DATABASE;
    }

    @Test
    void shouldApplyTheDemoLoadIntoPostgresWhenItIsReachable() throws Exception {
        String[] args = {
            "--dir",
            work.toString(),
            "--seed-rows",
            "2500",
            "--transactions",
            "400",
            "--rate",
            "400",
            "--http-port",
            "0",
            "--console-port",
            "0",
            "--source",
            SOURCE.server().host() + ":" + SOURCE.server().port(),
            "--source-user",
            SOURCE.server().rootUser(),
            "--source-password",
            SOURCE.server().rootPassword(),
            "--target",
            targetUrl(),
            "--target-user",
            POSTGRES.database().user(),
            "--target-password",
            POSTGRES.database().password()
        };
        Run first = run(args);
        assertThat(first.exit()).as(first.output()).isZero();
        assertThat(first.output())
                .contains("consumer applies into PostgreSQL " + targetUrl())
                .contains("  console  http://127.0.0.1:")
                .contains("seeded   2,500 rows in shop.* before the grid started")
                .contains("snapshot complete: ")
                .contains("row-count check: source and target agree on every table")
                // A caught-up consumer shows its relay's lag, on the clock the source allows.
                .containsPattern("lag +[0-9,]+ ms \\((receive-time|commit-micros)\\)")
                .doesNotContain("DIFFERENT");
        assertThat(Files.exists(work.resolve("events.jsonl"))).isFalse();
        // Without the snapshot the target would hold only what the live load wrote: the seed's ids
        // are below every id the demo inserted, and most of them the demo never touched.
        assertThat(snapshotRows(first.output())).isGreaterThan(1_000L);
        assertThat(count(targetConnection(), "\"shop\".\"customers\" WHERE id <= 100"))
                .isEqualTo(count(SOURCE.server().connect(), "shop.customers WHERE id <= 100"))
                .isPositive();
        for (String table : List.of("customers", "orders", "order_items")) {
            assertThat(rows(targetConnection(), "\"shop\".\"" + table + "\""))
                    .as("shop.%s in the target", table)
                    .isEqualTo(rows(SOURCE.server().connect(), "shop." + table))
                    .isNotEmpty();
        }
    }

    @Test
    void shouldWriteJsonLinesWhenTheTargetIsUnreachableOrNone() throws Exception {
        for (String target : List.of("jdbc:postgresql://127.0.0.1:1/nowhere", "none")) {
            Path dir = work.resolve(target.equals("none") ? "none" : "unreachable");
            Run run =
                    run(
                            "--dir", dir.toString(),
                            "--seed-rows", "300",
                            "--transactions", "50",
                            "--rate", "500",
                            "--http-port", "0",
                            "--console-port", "0",
                            "--target", target);
            assertThat(run.exit()).as(run.output()).isZero();
            assertThat(run.output()).contains("consumer JSON lines to");
            if (!target.equals("none")) {
                assertThat(run.output())
                        .containsOnlyOnce("not reachable")
                        .contains("writing JSON lines instead");
            }
            // The seed's rows as snapshot rows (less the few the live load changed first, which
            // arrive live), then the live events: none when the short demo load was over before
            // the snapshot began at the relay's newest transaction (its rows are then copied).
            assertThat(snapshotRows(run.output())).isGreaterThan(200L);
            assertThat(Files.readAllLines(dir.resolve("events.jsonl")))
                    .hasSizeGreaterThanOrEqualTo((int) snapshotRows(run.output()));
        }
    }

    @Test
    void shouldRefuseATargetThatIsNoPostgresUrl() {
        Run run = run("--dir", work.toString(), "--target", "jdbc:mariadb://127.0.0.1/x");
        assertThat(run.exit()).isEqualTo(2);
    }

    /** The snapshot rows the summary reports. */
    private static long snapshotRows(String output) {
        Matcher line = SNAPSHOT_LINE.matcher(output);
        assertThat(line.find()).as("snapshot line in %s", output).isTrue();
        return Long.parseLong(line.group(1).replace(",", ""));
    }

    private static long count(Connection connection, String tableAndCondition) throws SQLException {
        try (connection;
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery("SELECT count(*) FROM " + tableAndCondition)) {
            result.next();
            return result.getLong(1);
        }
    }

    private Connection targetConnection() throws SQLException {
        return DriverManager.getConnection(
                targetUrl(), POSTGRES.database().user(), POSTGRES.database().password());
    }

    /**
     * A table's rows as text sorted in Java, values in one form for both databases: decimals
     * without trailing zeros, date-times as ISO text, everything else as its string.
     */
    private static List<String> rows(Connection connection, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (connection;
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT * FROM " + table)) {
            ResultSetMetaData meta = result.getMetaData();
            while (result.next()) {
                StringJoiner row = new StringJoiner(" | ");
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    Object value = result.getObject(i);
                    String text;
                    if (value == null) {
                        text = "NULL";
                    } else if (value instanceof BigDecimal decimal) {
                        text = decimal.stripTrailingZeros().toPlainString();
                    } else if (value instanceof Timestamp timestamp) {
                        text = timestamp.toLocalDateTime().toString();
                    } else if (value instanceof Number number) {
                        text = Long.toString(number.longValue());
                    } else {
                        text = value.toString();
                    }
                    row.add(meta.getColumnName(i).toLowerCase() + "=" + text);
                }
                rows.add(row.toString());
            }
        }
        rows.sort(null);
        return rows;
    }
}
