package io.changegrid.appliers.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.consumer.Consumer;
import io.changegrid.gridkit.logminer.LogMinerStandIn;
import io.changegrid.gridkit.logminer.LogMinerWorkload;
import io.changegrid.gridkit.logminer.StandInColumn;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.PostgresDatabaseExtension;
import io.changegrid.testkit.PostgresServerExtension;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LogMiner source end to end into PostgreSQL: a relay with {@code source.type: logminer} mining
 * grid-kit's stand-in while the workload writes, a consumer, and the JDBC applier into a PostgreSQL
 * target. The workload's expected rows are loaded into a table of the applier's own definition, and
 * both tables' checksums are taken by PostgreSQL from its text output, so the comparison is of the
 * stored values. The TIMESTAMP WITH TIME ZONE column is declared with microseconds here ({@code
 * TIMESTAMP(6) WITH TIME ZONE}): the applier writes TIMESTAMP_TZ as {@code timestamptz(6)}, the
 * instant exact, and refuses finer values rather than round them.
 */
class LogMinerApplierIT {

    @RegisterExtension
    static final PostgresServerExtension ORACLE_STAND_IN = new PostgresServerExtension();

    @RegisterExtension
    static final PostgresDatabaseExtension TARGET = new PostgresDatabaseExtension();

    @TempDir Path state;

    @Test
    void shouldEndWithEqualTableChecksumsWhenAppliedIntoPostgres() throws Exception {
        List<StandInColumn> items =
                LogMinerWorkload.itemsColumns().stream()
                        .map(
                                c ->
                                        c.name().equals("SEEN")
                                                ? new StandInColumn(
                                                        "SEEN",
                                                        "TIMESTAMP(6) WITH TIME ZONE",
                                                        13,
                                                        null,
                                                        6,
                                                        true)
                                                : c)
                        .toList();
        LogMinerStandIn standIn = LogMinerStandIn.create(ORACLE_STAND_IN.server(), "oracle");
        LogMinerWorkload.define(standIn, items);
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println(
                "LogMinerApplierIT seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        var options = new LogMinerWorkload.Options(4, 6, 0.15, 0.1, 0.3, 0.1, 0.05, 4000, 30, 0);
        var workload = new LogMinerWorkload(seed, standIn.currentScn() + 1, options, items);
        Target target = Target.of(TARGET.database());
        try (Relay relay =
                        Relay.start(
                                RelaySettings.load(
                                        Map.of(),
                                        Map.ofEntries(
                                                Map.entry("source.type", "logminer"),
                                                Map.entry("source.url", standIn.jdbcUrl()),
                                                Map.entry("source.user", standIn.user()),
                                                Map.entry("source.dialect", "postgresql-stand-in"),
                                                Map.entry("source.pollInterval", "20ms"),
                                                Map.entry("source.heartbeatInterval", "200ms"),
                                                Map.entry("buffer.capacity", "64MiB"),
                                                Map.entry("buffer.segmentSize", "4MiB"),
                                                Map.entry("state.directory", state.toString()),
                                                Map.entry("http.port", "0"))));
                JdbcApplier applier =
                        JdbcApplier.open(
                                ApplierOptions.builder(target.url())
                                        .credentials(target.user(), target.password())
                                        .consumerGroup("oracle")
                                        .build())) {
            Consumer consumer =
                    Pipeline.consume(relay, "SHOP", applier, applier.checkpointStore(), 25);
            try {
                for (int round = 0; round < 8; round++) {
                    workload.write(standIn, 20, 4);
                }
                String table = target.table("SHOP", "ITEMS");
                Pipeline.awaitUntil(
                        consumer,
                        () -> {
                            try {
                                return target.count("SELECT count(*) FROM " + table)
                                                == workload.expectedRows().size()
                                        && checksum(target, table)
                                                .equals(expectedChecksum(target, table, workload));
                            } catch (java.sql.SQLException e) {
                                return false; // the table is not there yet
                            }
                        },
                        Duration.ofSeconds(90));
                assertThat(checksum(target, table))
                        .isEqualTo(expectedChecksum(target, table, workload));
                assertThat(applier.rowsApplied()).isPositive();
            } finally {
                consumer.close();
            }
        }
    }

    /** PostgreSQL's own digest of the table's rows in key order, from its text output. */
    private static String checksum(Target target, String table) throws java.sql.SQLException {
        try (Connection connection = target.connect();
                var statement = connection.createStatement();
                var rows =
                        statement.executeQuery(
                                "SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.\"ID\"), '')) FROM "
                                        + table
                                        + " t")) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** The workload's rows loaded into a table of the target table's definition, digested alike. */
    private static String expectedChecksum(Target target, String table, LogMinerWorkload workload)
            throws java.sql.SQLException {
        try (Connection connection = target.connect()) {
            connection.setAutoCommit(false);
            try (var statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS expected_items");
                statement.execute("CREATE TEMP TABLE expected_items (LIKE " + table + ")");
            }
            List<StandInColumn> columns = workload.columns();
            List<String> names = new ArrayList<>();
            List<String> marks = new ArrayList<>();
            for (StandInColumn column : columns) {
                names.add('"' + column.name() + '"');
                marks.add(column.dataType().startsWith("INTERVAL") ? "?::interval" : "?");
            }
            try (PreparedStatement insert =
                    connection.prepareStatement(
                            "INSERT INTO expected_items ("
                                    + String.join(", ", names)
                                    + ") VALUES ("
                                    + String.join(", ", marks)
                                    + ")")) {
                for (Map<String, Object> row : workload.expectedRows().values()) {
                    for (int i = 0; i < columns.size(); i++) {
                        insert.setObject(i + 1, jdbcValue(row.get(columns.get(i).name())));
                    }
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (var statement = connection.createStatement();
                    var rows =
                            statement.executeQuery(
                                    "SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.\"ID\"), ''))"
                                            + " FROM expected_items t")) {
                rows.next();
                String digest = rows.getString(1);
                connection.rollback();
                return digest;
            }
        }
    }

    private static Object jdbcValue(Object value) {
        if (value instanceof Duration duration) {
            // PostgreSQL reads ISO 8601 durations: PT76H0.7S, PT-1.5S
            return duration.toString();
        }
        if (value instanceof LocalDateTime || value instanceof BigDecimal) {
            return value;
        }
        return value;
    }
}
