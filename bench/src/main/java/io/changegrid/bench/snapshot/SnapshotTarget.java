package io.changegrid.bench.snapshot;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.bench.consumer.InMemoryCheckpointStore;
import io.changegrid.consumer.api.CheckpointStore;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.sink.CountingCallback;
import io.changegrid.gridkit.server.PostgresDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Where one snapshot run's consumer delivers: a {@link CountingCallback} (the consumer's own cost)
 * with its checkpoint in memory, or the JDBC applier into a fresh PostgreSQL database (made by
 * grid-kit, dropped on close) with its checkpoint in the target.
 */
sealed interface SnapshotTarget extends AutoCloseable {

    /** The target a {@code --targets} value names. */
    static SnapshotTarget open(String name, int lanes) throws SQLException {
        return switch (name) {
            case "counting" -> new Counting(new CountingCallback(), new InMemoryCheckpointStore());
            case "postgresql" -> Postgres.open(lanes);
            default ->
                    throw new IllegalArgumentException(
                            "unknown target: option=--targets, value=" + name);
        };
    }

    ConsumerCallback callback();

    CheckpointStore checkpointStore();

    /**
     * Row counts of {@code tables} in the target, in their order; empty when the target keeps no
     * rows (the counting callback).
     */
    List<Long> rowCounts(String database, List<String> tables) throws SQLException;

    @Override
    void close() throws SQLException;

    /** Counts the events; keeps nothing. */
    record Counting(CountingCallback callback, CheckpointStore checkpointStore)
            implements SnapshotTarget {

        @Override
        public List<Long> rowCounts(String database, List<String> tables) {
            return List.of();
        }

        @Override
        public void close() {
            // nothing held
        }
    }

    /** The JDBC applier into a database of its own. */
    record Postgres(PostgresDatabase database, JdbcApplier applier) implements SnapshotTarget {

        static Postgres open(int lanes) throws SQLException {
            PostgresDatabase database = PostgresDatabase.create();
            try {
                ApplierOptions options =
                        ApplierOptions.builder(database.jdbcUrl())
                                .credentials(
                                        database.user(),
                                        database.password() == null || database.password().isEmpty()
                                                ? null
                                                : database.password())
                                .consumerGroup("bench-snapshot")
                                .lanes(lanes, LaneRouter.parse("key"))
                                .build();
                return new Postgres(database, JdbcApplier.open(options));
            } catch (SQLException | RuntimeException e) {
                database.close();
                throw e;
            }
        }

        @Override
        public ConsumerCallback callback() {
            return applier;
        }

        @Override
        public CheckpointStore checkpointStore() {
            return applier.checkpointStore();
        }

        @Override
        public List<Long> rowCounts(String schema, List<String> tables) throws SQLException {
            List<Long> counts = new ArrayList<>();
            try (Connection connection = database.connect();
                    Statement statement = connection.createStatement()) {
                for (String table : tables) {
                    try (ResultSet rows =
                            statement.executeQuery(
                                    "SELECT count(*) FROM \"" + schema + "\".\"" + table + "\"")) {
                        rows.next();
                        counts.add(rows.getLong(1));
                    }
                }
            }
            return counts;
        }

        @Override
        public void close() {
            try {
                applier.close();
            } finally {
                database.close();
            }
        }
    }
}
