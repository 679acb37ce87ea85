package io.changegrid.fetchers.mysql.schema;

import java.util.List;

/** One specification of an ALTER TABLE statement that can change the table's schema. */
sealed interface AlterSpec {

    /** Where a column added or moved goes: first, after a column, or (neither) at the end. */
    record Position(boolean first, String after) {
        static final Position NONE = new Position(false, null);

        boolean given() {
            return first || after != null;
        }
    }

    /** {@code ADD [COLUMN] [IF NOT EXISTS] definition [FIRST | AFTER column]}. */
    record AddColumn(ColumnDefinition definition, Position position, boolean ifNotExists)
            implements AlterSpec {}

    /**
     * {@code CHANGE [COLUMN] [IF EXISTS] old definition} or {@code MODIFY [COLUMN] [IF EXISTS]
     * definition} (where old is the definition's name), {@code [FIRST | AFTER column]}.
     */
    record ChangeColumn(
            String oldName, ColumnDefinition definition, Position position, boolean ifExists)
            implements AlterSpec {}

    /** {@code DROP [COLUMN] [IF EXISTS] column}. */
    record DropColumn(String name, boolean ifExists) implements AlterSpec {}

    /** {@code RENAME COLUMN [IF EXISTS] old TO new}. */
    record RenameColumn(String oldName, String newName, boolean ifExists) implements AlterSpec {}

    /** {@code ADD [CONSTRAINT [name]] PRIMARY KEY (columns)}. */
    record AddPrimaryKey(List<String> columns) implements AlterSpec {}

    /**
     * {@code DROP PRIMARY KEY}, {@code DROP INDEX `PRIMARY`}, {@code DROP CONSTRAINT `PRIMARY`}.
     */
    record DropPrimaryKey() implements AlterSpec {}

    /** {@code RENAME [TO | AS] name}. */
    record RenameTable(TableName to) implements AlterSpec {}

    /**
     * {@code CONVERT TO CHARACTER SET charset [COLLATE collation]}; a null charset means {@code
     * DEFAULT}, the database's.
     */
    record ConvertCharset(String charset, String collation) implements AlterSpec {}

    /** {@code [DEFAULT] CHARACTER SET charset}, {@code [DEFAULT] COLLATE collation}. */
    record DefaultCharset(String charset, String collation) implements AlterSpec {}
}
