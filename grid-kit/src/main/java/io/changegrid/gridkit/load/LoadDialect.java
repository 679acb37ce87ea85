package io.changegrid.gridkit.load;

import java.util.List;
import java.util.StringJoiner;

/**
 * The SQL the load speaks to its source: the same tables, rows and transactions on MariaDB/MySQL
 * and on PostgreSQL, so that both give consumers the same row streams.
 *
 * <p>On PostgreSQL the workload's "database" is a schema; {@code code} is {@code varchar(5)}, since
 * PostgreSQL's {@code char(5)} keeps the padding MariaDB's CHAR strips; every table gets {@code
 * REPLICA IDENTITY FULL}, which the PostgreSQL fetcher requires.
 */
public enum LoadDialect {
    MARIADB {
        @Override
        String quote(String name) {
            return '`' + name + '`';
        }

        @Override
        List<String> createTable(String qualified, int maxText) {
            StringBuilder ddl =
                    new StringBuilder("CREATE TABLE IF NOT EXISTS ")
                            .append(qualified)
                            .append(" (id BIGINT PRIMARY KEY, account INT NOT NULL,")
                            .append(" quantity INT, amount DECIMAL(12,2), status VARCHAR(12),")
                            .append(" code CHAR(5), name VARCHAR(40), created DATETIME(6),")
                            .append(" updated TIMESTAMP(6) NULL");
            appendNotes(ddl, maxText);
            return List.of(ddl.append(") ENGINE=InnoDB CHARACTER SET utf8mb4").toString());
        }

        @Override
        List<String> createNamespace(String namespace) {
            return List.of();
        }

        @Override
        String upsertClause(String[] columns) {
            StringJoiner clause = new StringJoiner(",", " ON DUPLICATE KEY UPDATE ", "");
            for (String column : columns) {
                clause.add(column + "=VALUES(" + column + ")");
            }
            return clause.toString();
        }

        @Override
        String now() {
            return "NOW(6)";
        }
    },

    POSTGRESQL {
        @Override
        String quote(String name) {
            return '"' + name + '"';
        }

        @Override
        List<String> createTable(String qualified, int maxText) {
            StringBuilder ddl =
                    new StringBuilder("CREATE TABLE IF NOT EXISTS ")
                            .append(qualified)
                            .append(" (id bigint PRIMARY KEY, account integer NOT NULL,")
                            .append(" quantity integer, amount numeric(12,2), status varchar(12),")
                            .append(" code varchar(5), name varchar(40), created timestamp(6),")
                            .append(" updated timestamptz(6) NULL");
            appendNotes(ddl, maxText);
            return List.of(
                    ddl.append(')').toString(),
                    "ALTER TABLE " + qualified + " REPLICA IDENTITY FULL");
        }

        @Override
        List<String> createNamespace(String namespace) {
            return List.of("CREATE SCHEMA IF NOT EXISTS " + quote(namespace));
        }

        @Override
        String upsertClause(String[] columns) {
            StringJoiner clause = new StringJoiner(",", " ON CONFLICT (id) DO UPDATE SET ", "");
            for (String column : columns) {
                clause.add(column + "=EXCLUDED." + column);
            }
            return clause.toString();
        }

        @Override
        String now() {
            return "now()";
        }
    };

    /** A name quoted as an identifier. */
    abstract String quote(String name);

    /** The statements that create one table if it does not exist. */
    abstract List<String> createTable(String qualified, int maxText);

    /** The statements that create the tables' namespace if needed. */
    abstract List<String> createNamespace(String namespace);

    /** What makes an INSERT of existing keys update their rows. */
    abstract String upsertClause(String[] columns);

    /** The commit's current time with microseconds. */
    abstract String now();

    private static void appendNotes(StringBuilder ddl, int maxText) {
        for (int c = 1; c <= RowValues.TEXT_COLUMNS; c++) {
            ddl.append(", note").append(c).append(" varchar(").append(maxText).append(')');
        }
    }
}
