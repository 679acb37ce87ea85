package io.changegrid.fetchers.postgresql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks at start that the source can be captured, and reports every problem at once, each with the
 * statement that fixes it: {@code wal_level=logical}, the REPLICATION attribute, a free slot (or
 * our own, idle, pgoutput, in this database), a publication covering every captured table, REPLICA
 * IDENTITY FULL on each (so before images are whole and unchanged TOASTed values are sent), and
 * column types the fetcher carries.
 */
final class SourceChecks {

    private SourceChecks() {}

    /**
     * @param columns the captured tables' columns, by table
     * @return whether the publication must be created (missing, and creating it allowed)
     * @throws FetchFailedException listing every problem
     */
    static boolean run(
            Connection connection,
            PostgresFetcherConfig config,
            Map<PgCatalog.Table, List<PgCatalog.TypedColumn>> columns)
            throws SQLException {
        List<String> problems = new ArrayList<>();
        String walLevel = single(connection, "SHOW wal_level");
        if (!walLevel.equals("logical")) {
            problems.add(
                    "wal_level must be logical: wal_level="
                            + walLevel
                            + "; fix: ALTER SYSTEM SET wal_level = logical; then restart the server");
        }
        if (!Boolean.parseBoolean(
                single(
                        connection,
                        "SELECT (rolreplication OR rolsuper)::text FROM pg_roles WHERE rolname = current_user"))) {
            problems.add(
                    "user lacks the REPLICATION attribute: user="
                            + config.user()
                            + "; fix: ALTER ROLE "
                            + quote(config.user())
                            + " REPLICATION");
        }
        checkSlot(connection, config, problems);
        boolean createPublication =
                checkPublication(connection, config, columns.keySet(), problems);
        addTableProblems(columns, problems);
        failIfAny(config, problems);
        return createPublication;
    }

    /**
     * Checks the captured tables alone (REPLICA IDENTITY FULL, column types the fetcher carries),
     * for tables read again after the full check, e.g. at a new slot's snapshot.
     *
     * @throws FetchFailedException listing every problem
     */
    static void checkTables(
            PostgresFetcherConfig config,
            Map<PgCatalog.Table, List<PgCatalog.TypedColumn>> columns) {
        List<String> problems = new ArrayList<>();
        addTableProblems(columns, problems);
        failIfAny(config, problems);
    }

    private static void addTableProblems(
            Map<PgCatalog.Table, List<PgCatalog.TypedColumn>> columns, List<String> problems) {
        columns.forEach(
                (table, typed) -> {
                    if (table.replicaIdentity() != 'f') {
                        problems.add(
                                "captured table without REPLICA IDENTITY FULL: table="
                                        + table.qualifiedName()
                                        + ", replicaIdentity="
                                        + table.replicaIdentity()
                                        + "; fix: ALTER TABLE "
                                        + qualified(table)
                                        + " REPLICA IDENTITY FULL");
                    }
                    for (var column : typed) {
                        if (column.kind() == null) {
                            problems.add(
                                    "column type the fetcher cannot carry: table="
                                            + table.qualifiedName()
                                            + ", column="
                                            + column.column().name()
                                            + ", type="
                                            + column.typeName()
                                            + "; exclude the table (capture.exclude) or change the column's type");
                        }
                    }
                });
    }

    private static void failIfAny(PostgresFetcherConfig config, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new FetchFailedException(
                    "PostgreSQL source cannot be captured: host="
                            + config.host()
                            + ":"
                            + config.port()
                            + ", database="
                            + config.database()
                            + ", problems:\n  - "
                            + String.join("\n  - ", problems));
        }
    }

    private static void checkSlot(
            Connection connection, PostgresFetcherConfig config, List<String> problems)
            throws SQLException {
        int maxSlots = Integer.parseInt(single(connection, "SHOW max_replication_slots"));
        int maxSenders = Integer.parseInt(single(connection, "SHOW max_wal_senders"));
        if (maxSenders == 0) {
            problems.add(
                    "max_wal_senders is 0; fix: ALTER SYSTEM SET max_wal_senders = 10; then restart the server");
        }
        try (var statement =
                connection.prepareStatement(
                        "SELECT slot_type, plugin, database, active, active_pid FROM pg_replication_slots WHERE slot_name = ?")) {
            statement.setString(1, config.slot());
            try (var rows = statement.executeQuery()) {
                if (rows.next()) {
                    if (!"logical".equals(rows.getString(1))
                            || !"pgoutput".equals(rows.getString(2))
                            || !config.database().equals(rows.getString(3))) {
                        problems.add(
                                "slot exists but is not a pgoutput slot of this database: slot="
                                        + config.slot()
                                        + ", type="
                                        + rows.getString(1)
                                        + ", plugin="
                                        + rows.getString(2)
                                        + ", database="
                                        + rows.getString(3)
                                        + "; fix: choose another source.slot, or SELECT pg_drop_replication_slot('"
                                        + config.slot()
                                        + "')");
                    } else if (rows.getBoolean(4)) {
                        problems.add(
                                "slot is in use by another connection: slot="
                                        + config.slot()
                                        + ", pid="
                                        + rows.getInt(5)
                                        + "; each relay needs its own source.slot");
                    }
                    return;
                }
            }
        }
        int used =
                Integer.parseInt(
                        single(connection, "SELECT count(*)::text FROM pg_replication_slots"));
        if (used >= maxSlots) {
            problems.add(
                    "no free replication slot: max_replication_slots="
                            + maxSlots
                            + ", used="
                            + used
                            + "; fix: ALTER SYSTEM SET max_replication_slots = "
                            + (maxSlots + 4)
                            + "; then restart the server, or drop an unused slot");
        }
    }

    private static boolean checkPublication(
            Connection connection,
            PostgresFetcherConfig config,
            Set<PgCatalog.Table> tables,
            List<String> problems)
            throws SQLException {
        String name = config.publication();
        boolean allTables;
        boolean allOperations;
        try (var statement =
                connection.prepareStatement(
                        "SELECT puballtables, pubinsert AND pubupdate AND pubdelete FROM pg_publication WHERE pubname = ?")) {
            statement.setString(1, name);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    if (config.createPublication()) {
                        return true;
                    }
                    problems.add(
                            "publication missing: publication="
                                    + name
                                    + "; fix: "
                                    + createStatement(name, tables));
                    return false;
                }
                allTables = rows.getBoolean(1);
                allOperations = rows.getBoolean(2);
            }
        }
        if (!allOperations) {
            problems.add(
                    "publication does not publish inserts, updates and deletes: publication="
                            + name
                            + "; fix: ALTER PUBLICATION "
                            + name
                            + " SET (publish = 'insert, update, delete')");
        }
        if (allTables) {
            return false;
        }
        Set<String> published = new HashSet<>();
        try (var statement =
                connection.prepareStatement(
                        "SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ?")) {
            statement.setString(1, name);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    published.add(rows.getString(1) + "." + rows.getString(2));
                }
            }
        }
        for (var table : tables) {
            if (!published.contains(table.qualifiedName())) {
                problems.add(
                        "captured table not in the publication: table="
                                + table.qualifiedName()
                                + ", publication="
                                + name
                                + "; fix: ALTER PUBLICATION "
                                + name
                                + " ADD TABLE "
                                + qualified(table));
            }
        }
        return false;
    }

    /** The statement that creates the publication for the captured tables. */
    static String createStatement(String publication, Set<PgCatalog.Table> tables) {
        if (tables.isEmpty()) {
            return "CREATE PUBLICATION " + publication;
        }
        List<String> names = new ArrayList<>();
        tables.forEach(t -> names.add(qualified(t)));
        java.util.Collections.sort(names);
        return "CREATE PUBLICATION " + publication + " FOR TABLE " + String.join(", ", names);
    }

    static String qualified(PgCatalog.Table table) {
        return quote(table.schema()) + "." + quote(table.name());
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
