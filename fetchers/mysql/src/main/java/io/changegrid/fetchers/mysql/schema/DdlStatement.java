package io.changegrid.fetchers.mysql.schema;

import java.util.List;
import java.util.stream.Stream;

/** A parsed statement, reduced to what matters for table schemas. */
sealed interface DdlStatement {

    /** The tables (and views) the statement names, for an unsupported outcome. */
    default List<TableName> tables() {
        return List.of();
    }

    /** {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name (definitions) [options]}. */
    record CreateTable(
            TableName name,
            boolean orReplace,
            boolean ifNotExists,
            List<ColumnDefinition> columns,
            List<String> primaryKey,
            String charset,
            String collation)
            implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return List.of(name);
        }
    }

    /** {@code CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name LIKE source}. */
    record CreateTableLike(TableName name, TableName source, boolean orReplace, boolean ifNotExists)
            implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return List.of(name, source);
        }
    }

    /** MariaDB's {@code CREATE [OR REPLACE] SEQUENCE [IF NOT EXISTS] name}: a one-row table. */
    record CreateSequence(TableName name, boolean orReplace, boolean ifNotExists)
            implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return List.of(name);
        }
    }

    /**
     * {@code ALTER TABLE [IF EXISTS] name spec, ...}; also {@code DROP INDEX `PRIMARY` ON name}.
     */
    record AlterTable(TableName name, boolean ifExists, List<AlterSpec> specs)
            implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return Stream.concat(
                            Stream.of(name),
                            specs.stream()
                                    .filter(AlterSpec.RenameTable.class::isInstance)
                                    .map(spec -> ((AlterSpec.RenameTable) spec).to()))
                    .toList();
        }
    }

    /** One {@code from TO to} of RENAME TABLE. */
    record Rename(TableName from, TableName to) {}

    /** {@code RENAME TABLE [IF EXISTS] a TO b, c TO d}, applied left to right. */
    record RenameTables(List<Rename> renames, boolean ifExists) implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return renames.stream().flatMap(r -> Stream.of(r.from(), r.to())).toList();
        }
    }

    /** {@code DROP TABLE [IF EXISTS] a, b} and {@code DROP SEQUENCE}. */
    record DropTables(List<TableName> names, boolean ifExists) implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return names;
        }
    }

    /** {@code TRUNCATE [TABLE] name}. */
    record TruncateTable(TableName name) implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return List.of(name);
        }
    }

    /** {@code CREATE [OR REPLACE] DATABASE [IF NOT EXISTS] name [CHARACTER SET cs] [COLLATE c]}. */
    record CreateDatabase(
            String name, boolean orReplace, boolean ifNotExists, String charset, String collation)
            implements DdlStatement {}

    /** {@code ALTER DATABASE [name] [CHARACTER SET cs] [COLLATE c]}. */
    record AlterDatabase(String name, String charset, String collation) implements DdlStatement {}

    /** {@code DROP DATABASE [IF EXISTS] name}: its tables go with it. */
    record DropDatabase(String name, boolean ifExists) implements DdlStatement {}

    /** {@code CREATE [OR REPLACE] ... VIEW name}: views have no rows but share the table names. */
    record CreateView(TableName name) implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return List.of(name);
        }
    }

    /** {@code DROP VIEW [IF EXISTS] a, b}. */
    record DropViews(List<TableName> names) implements DdlStatement {
        @Override
        public List<TableName> tables() {
            return names;
        }
    }

    /** A statement that changes no table schema: transaction control, DML, grants, indexes... */
    record Ignored(String reason) implements DdlStatement {}
}
