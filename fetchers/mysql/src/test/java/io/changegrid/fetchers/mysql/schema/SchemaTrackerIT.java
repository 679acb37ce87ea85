package io.changegrid.fetchers.mysql.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.testkit.MariaDbExtension;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The proof of the DDL parser: every statement of {@link DdlScript} runs on a private mariadbd, and
 * two trackers follow it, one fed the statement as the binlog's QUERY event has it (what a fetcher
 * sees), one fed the statement as the client sent it. After each statement both must hold exactly
 * the databases, tables (columns, types, source types with character sets, nullability, widths,
 * keys, default character sets) and views that information_schema shows.
 *
 * <p>A tracker that fails a statement is reset from information_schema, so that each statement is
 * judged on its own.
 */
class SchemaTrackerIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    private static final int LOCK_ATTEMPTS = 10;

    private static Connection session;
    private static Connection reads;

    private final InformationSchemaReader reader = new InformationSchemaReader();
    private BinlogQueries binlog;
    private SchemaTracker fromBinlog;
    private SchemaTracker fromClient;

    @AfterAll
    static void closeConnections() throws SQLException {
        if (session != null) {
            session.close();
        }
        if (reads != null) {
            reads.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> shouldMatchInformationSchemaWhenEachDdlIsApplied() throws SQLException {
        session = MARIADB.server().connect();
        reads = MARIADB.server().connect();
        SchemaSnapshot initial = reader.read(reads);
        fromBinlog = SchemaTracker.fromSnapshot(initial, new SchemaRegistry());
        fromClient = SchemaTracker.fromSnapshot(initial, new SchemaRegistry());
        binlog = new BinlogQueries(MARIADB.server().dataDir(), reads);
        List<DdlScript.Step> steps = DdlScript.steps();
        return IntStream.range(0, steps.size())
                .mapToObj(
                        i ->
                                dynamicTest(
                                        String.format("%03d %s", i + 1, steps.get(i).sql()),
                                        () -> step(steps.get(i))));
    }

    private void step(DdlScript.Step step) throws SQLException, IOException {
        String clientDatabase = currentDatabase();
        execute(step.sql());
        List<DdlOutcome> binlogOutcomes = new ArrayList<>();
        for (BinlogQueries.Query query : binlog.next()) {
            binlogOutcomes.add(fromBinlog.apply(query.database(), query.sql()));
        }
        DdlOutcome clientOutcome = fromClient.apply(clientDatabase, step.sql());
        SchemaSnapshot expected = reader.read(reads);
        SchemaSnapshot byBinlog = fromBinlog.snapshot();
        SchemaSnapshot byClient = fromClient.snapshot();
        reset(expected);
        switch (step.expect()) {
            case MATCH -> {
                assertThat(binlogOutcomes).noneMatch(DdlOutcome.Unsupported.class::isInstance);
                assertThat(clientOutcome).isNotInstanceOf(DdlOutcome.Unsupported.class);
                assertSameState(byClient, expected, "client statement");
            }
            case BINLOG_ONLY ->
                    assertThat(binlogOutcomes).noneMatch(DdlOutcome.Unsupported.class::isInstance);
            case CLIENT_UNSUPPORTED -> {
                assertThat(binlogOutcomes).noneMatch(DdlOutcome.Unsupported.class::isInstance);
                assertThat(clientOutcome).isInstanceOf(DdlOutcome.Unsupported.class);
            }
            case UNSUPPORTED -> {
                assertThat(binlogOutcomes).anyMatch(DdlOutcome.Unsupported.class::isInstance);
                assertThat(clientOutcome).isInstanceOf(DdlOutcome.Unsupported.class);
                return;
            }
        }
        assertSameState(byBinlog, expected, "binlog statement");
    }

    /**
     * Runs a statement, again if the server refused it for a lock: a NOWAIT statement fails at once
     * when InnoDB's background statistics thread has the table open after the previous ALTER, and a
     * refused statement changes nothing and is not logged.
     */
    private static void execute(String sql) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try (Statement statement = session.createStatement()) {
                statement.execute(sql);
                return;
            } catch (SQLException e) {
                if (e.getErrorCode() != ER_LOCK_WAIT_TIMEOUT || attempt == LOCK_ATTEMPTS) {
                    throw e;
                }
                sleep(Duration.ofMillis(100L * attempt));
            }
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void reset(SchemaSnapshot expected) {
        if (!fromBinlog.snapshot().equals(expected)) {
            fromBinlog = SchemaTracker.fromSnapshot(expected, new SchemaRegistry());
        }
        if (!fromClient.snapshot().equals(expected)) {
            fromClient = SchemaTracker.fromSnapshot(expected, new SchemaRegistry());
        }
    }

    private static void assertSameState(SchemaSnapshot actual, SchemaSnapshot expected, String by) {
        assertThat(actual.databases()).as(by + ": databases").isEqualTo(expected.databases());
        assertThat(actual.views()).as(by + ": views").isEqualTo(expected.views());
        assertThat(actual.tables().stream().map(TableDefinition::name).toList())
                .as(by + ": tables")
                .isEqualTo(expected.tables().stream().map(TableDefinition::name).toList());
        for (int i = 0; i < expected.tables().size(); i++) {
            TableDefinition want = expected.tables().get(i);
            TableDefinition got = actual.tables().get(i);
            assertThat(got.columns())
                    .as(by + ": columns of " + want.name())
                    .isEqualTo(want.columns());
            assertThat(got.keyColumns())
                    .as(by + ": key of " + want.name())
                    .isEqualTo(want.keyColumns());
            assertThat(got.charset())
                    .as(by + ": charset of " + want.name())
                    .isEqualTo(want.charset());
        }
        assertThat(actual).isEqualTo(expected);
    }

    private static String currentDatabase() throws SQLException {
        try (Statement statement = session.createStatement();
                ResultSet rs = statement.executeQuery("SELECT DATABASE()")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
