package io.changegrid.fetchers.mysql;

import io.changegrid.policy.capture.TableFilter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Foreign keys of captured tables whose referential actions change rows behind the binlog's back.
 * InnoDB carries out {@code ON DELETE/UPDATE CASCADE}, {@code SET NULL} and {@code SET DEFAULT}
 * inside the storage engine, and MariaDB and MySQL before 9.6 log only the statement's own rows:
 * the child rows a cascade deletes or changes never appear as row events, so no consumer hears of
 * them. Nothing in the stream shows the gap afterwards, so the fetcher names such keys at start.
 */
final class CascadingForeignKeys {

    private static final Logger LOG = LoggerFactory.getLogger(CascadingForeignKeys.class);
    private static final int LISTED = 20;
    private static final int ER_NO_SUCH_TABLE = 1146;

    /**
     * Tables with foreign keys. KEY_COLUMN_USAGE shows them to a user with SELECT; the rules are in
     * REFERENTIAL_CONSTRAINTS, which MariaDB shows only to users with more than SELECT on the
     * table, so they are read from SHOW CREATE TABLE.
     */
    private static final String TABLES_WITH_FOREIGN_KEYS =
            "SELECT DISTINCT TABLE_SCHEMA, TABLE_NAME FROM information_schema.KEY_COLUMN_USAGE"
                    + " WHERE REFERENCED_TABLE_NAME IS NOT NULL ORDER BY TABLE_SCHEMA, TABLE_NAME";

    private static final String NAME = "`(?:[^`]|``)+`";
    private static final Pattern FOREIGN_KEY =
            Pattern.compile(
                    "^\\s*CONSTRAINT\\s+("
                            + NAME
                            + ")\\s+FOREIGN KEY\\s*\\(.*?\\)\\s*REFERENCES\\s+(?:("
                            + NAME
                            + ")\\.)?("
                            + NAME
                            + ")\\s*\\(.*?\\)(.*)$");
    private static final Pattern ACTION =
            Pattern.compile("ON (DELETE|UPDATE) (CASCADE|SET NULL|SET DEFAULT)");

    private CascadingForeignKeys() {}

    /**
     * The captured tables' foreign keys with a referential action, each as {@code
     * db.child(constraint) -> db.parent ON DELETE CASCADE}.
     */
    static List<String> of(Connection connection, TableFilter capture) throws SQLException {
        List<Table> tables = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(TABLES_WITH_FOREIGN_KEYS)) {
            while (rows.next()) {
                Table table = new Table(rows.getString(1), rows.getString(2));
                if (!TableFilter.isSystemDatabase(table.database())
                        && capture.matches(table.database(), table.name())) {
                    tables.add(table);
                }
            }
        }
        List<String> found = new ArrayList<>();
        for (Table table : tables) {
            found.addAll(cascading(connection, table.database(), table.name()));
        }
        return found;
    }

    private record Table(String database, String name) {}

    private static List<String> cascading(Connection connection, String database, String table)
            throws SQLException {
        String definition;
        try (Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SHOW CREATE TABLE " + quote(database) + "." + quote(table))) {
            if (!rows.next()) {
                return List.of();
            }
            definition = rows.getString(2);
        } catch (SQLException e) {
            if (e.getErrorCode() == ER_NO_SUCH_TABLE) {
                return List.of(); // dropped since the first query
            }
            throw e;
        }
        List<String> found = new ArrayList<>();
        for (String line : definition.split("\\n")) {
            Matcher key = FOREIGN_KEY.matcher(line);
            if (!key.matches()) {
                continue;
            }
            StringBuilder actions = new StringBuilder();
            Matcher action = ACTION.matcher(key.group(4));
            while (action.find()) {
                actions.append(' ').append(action.group());
            }
            if (actions.length() > 0) {
                String parentDatabase = key.group(2) == null ? database : unquote(key.group(2));
                found.add(
                        database
                                + "."
                                + table
                                + "("
                                + unquote(key.group(1))
                                + ") -> "
                                + parentDatabase
                                + "."
                                + unquote(key.group(3))
                                + actions);
            }
        }
        return found;
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static String unquote(String quoted) {
        return quoted.substring(1, quoted.length() - 1).replace("``", "`");
    }

    /**
     * Logs the captured tables' cascading foreign keys, if there are any. Only advice: a source
     * this cannot look at is captured all the same.
     */
    static void warn(Connection connection, TableFilter capture) {
        List<String> found;
        try {
            found = of(connection, capture);
        } catch (SQLException e) {
            LOG.warn(
                    "foreign keys of captured tables not checked for referential actions: error={}",
                    e.getMessage());
            return;
        }
        if (found.isEmpty()) {
            return;
        }
        List<String> listed = found.subList(0, Math.min(LISTED, found.size()));
        LOG.warn(
                "captured tables have foreign keys with referential actions: the rows those"
                        + " actions change are not in the binlog and reach no consumer (delete or"
                        + " update the child rows in the application instead, or accept that"
                        + " targets keep them): count={}, keys=[{}]{}",
                found.size(),
                String.join(", ", listed),
                found.size() > listed.size()
                        ? " and " + (found.size() - listed.size()) + " more"
                        : "");
    }
}
