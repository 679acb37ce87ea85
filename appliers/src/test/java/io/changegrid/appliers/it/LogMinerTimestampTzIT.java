package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.ApplyMode;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.ConsumerState;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.logminer.RedoRenderer;
import io.changegrid.gridkit.logminer.RedoRow;
import io.changegrid.gridkit.logminer.StandInColumn;
import io.changegrid.relay.Relay;
import io.changegrid.testkit.PostgresDatabaseExtension;
import io.changegrid.testkit.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Oracle's TIMESTAMP WITH TIME ZONE (TIMESTAMP_TZ) from the LogMiner source into PostgreSQL, on
 * each write path of the applier: values at several offsets (and across a date line) arrive in
 * {@code timestamptz(6)} as the same instants, to the microsecond; a value with nanoseconds then
 * stops the applier naming the column, with nothing of its row written (rounding would change it).
 */
class LogMinerTimestampTzIT {

    @RegisterExtension
    static final PostgresServerExtension ORACLE_STAND_IN = new PostgresServerExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension TARGET = new PostgresDatabaseExtension();

    private static final List<StandInColumn> COLUMNS =
            List.of(
                    StandInColumn.number("ID", 10, 0, false),
                    new StandInColumn("SEEN", "TIMESTAMP(9) WITH TIME ZONE", 13, null, 9, true));
    private static final List<OffsetDateTime> EXACT =
            List.of(
                    OffsetDateTime.of(
                            2026, 3, 29, 1, 30, 0, 123_456_000, ZoneOffset.ofHoursMinutes(-5, -30)),
                    OffsetDateTime.of(2026, 1, 1, 23, 0, 0, 1_000, ZoneOffset.ofHours(14)),
                    OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC),
                    OffsetDateTime.of(2000, 2, 29, 12, 0, 0, 0, ZoneOffset.ofHours(-12)));

    @TempDir Path state;

    private final List<RedoRow> rows = new ArrayList<>();
    private long scn;

    @ParameterizedTest(name = "apply.mode={0}")
    @EnumSource(ApplyMode.class)
    void shouldKeepEveryInstantToTheMicrosecondAndRefuseNanosecondsWhenAppliedIntoPostgres(
            ApplyMode mode) throws Exception {
        String owner = "TZ_" + mode.name().toUpperCase(Locale.ROOT);
        LogMinerStandIn standIn =
                LogMinerStandIn.create(ORACLE_STAND_IN.server(), owner.toLowerCase(Locale.ROOT));
        standIn.defineTable(owner, "EVENTS", COLUMNS, List.of("ID"), true);
        scn = standIn.currentScn();
        Target target = Target.of(TARGET.database());
        try (Relay relay = Pipeline.startLogMinerRelay(standIn, state.resolve(owner));
                JdbcApplier applier =
                        JdbcApplier.open(
                                ApplierOptions.builder(target.url())
                                        .credentials(target.user(), target.password())
                                        .consumerGroup(owner)
                                        .mode(mode)
                                        .build())) {
            Consumer consumer =
                    Pipeline.consume(relay, owner, applier, applier.checkpointStore(), 10);
            try {
                for (int i = 0; i < EXACT.size(); i++) {
                    insert(owner, i + 1, EXACT.get(i));
                }
                standIn.append(rows, List.of(), scn);
                rows.clear();
                String table = target.table(owner, "EVENTS");
                Pipeline.awaitUntil(
                        consumer,
                        () -> countOrZero(target, table) == EXACT.size(),
                        Duration.ofSeconds(60));
                try (Connection connection = target.connect();
                        var statement = connection.createStatement();
                        var result =
                                statement.executeQuery(
                                        "SELECT \"ID\", \"SEEN\" FROM "
                                                + table
                                                + " ORDER BY \"ID\"")) {
                    for (OffsetDateTime expected : EXACT) {
                        assertThat(result.next()).isTrue();
                        assertThat(result.getObject(2, OffsetDateTime.class).toInstant())
                                .isEqualTo(expected.toInstant());
                    }
                }
                insert(
                        owner,
                        99,
                        OffsetDateTime.of(
                                2026, 11, 26, 9, 0, 0, 123_456_789, ZoneOffset.ofHours(1)));
                standIn.append(rows, List.of(), scn);
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> consumer.state() == ConsumerState.FAILED);
                assertThat(consumer.failure().orElseThrow())
                        .hasStackTraceContaining("column=SEEN")
                        .hasStackTraceContaining("finer than microseconds");
                assertThat(target.count("SELECT count(*) FROM " + table + " WHERE \"ID\" = 99"))
                        .isZero();
            } finally {
                consumer.close();
            }
        }
    }

    private static long countOrZero(Target target, String table) {
        try {
            return target.count("SELECT count(*) FROM " + table);
        } catch (java.sql.SQLException e) {
            return 0; // not created yet
        }
    }

    private void insert(String owner, long id, OffsetDateTime seen) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("ID", id);
        row.put("SEEN", seen);
        byte[] xid = {0, 5, 0, 6, 0, 0, 0, (byte) id};
        add(RedoRow.START, "START", owner, "set transaction read write;", xid, null);
        add(
                RedoRow.INSERT,
                "INSERT",
                owner,
                RedoRenderer.insert(owner, "EVENTS", COLUMNS, row),
                xid,
                "EVENTS");
        add(RedoRow.COMMIT, "COMMIT", owner, "commit;", xid, null);
    }

    private void add(
            int code, String operation, String owner, String sql, byte[] xid, String table) {
        scn++;
        rows.add(
                new RedoRow(
                        scn,
                        code,
                        operation,
                        sql,
                        LocalDateTime.of(2026, 11, 26, 10, 0),
                        xid,
                        false,
                        table == null ? null : owner,
                        table,
                        String.format("AAASs1AAE%09d", xid[7]),
                        false,
                        scn,
                        1,
                        String.format(" 0x000001.%08x.0010 ", scn)));
    }
}
