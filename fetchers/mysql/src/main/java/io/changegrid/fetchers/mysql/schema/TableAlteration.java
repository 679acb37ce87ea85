package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.Column;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Applies the specifications of one ALTER TABLE to a table definition the way the server does
 * (MySQL's and MariaDB's {@code mysql_prepare_alter_table}): the new table's default character set
 * first, since column definitions in the same statement inherit it; then the old columns in order,
 * skipping dropped ones and replacing changed and renamed ones in place; then, in statement order,
 * added columns and changed columns that name a position, each put first, after the named column of
 * the new table, or at the end; then the primary key, following renamed columns and losing dropped
 * ones; then {@code CONVERT TO CHARACTER SET}, which also grows TEXT columns so that they keep
 * holding as many characters.
 *
 * <p>Column references in CHANGE, MODIFY, DROP and RENAME COLUMN name columns of the old table,
 * which is what lets {@code CHANGE a b ..., CHANGE b a ...} swap two columns. Not thread-safe; one
 * per statement.
 */
final class TableAlteration {

    /** A column of the table being built, and the name it had in the old table (null if new). */
    private record Entry(Column column, String oldName) {}

    private final TableDefinition table;
    private final List<AlterSpec> specs;
    private final String databaseCharset;
    private final ServerDialect dialect;
    private final List<Entry> entries = new ArrayList<>();

    private TableAlteration(
            TableDefinition table,
            List<AlterSpec> specs,
            String databaseCharset,
            ServerDialect dialect) {
        this.table = table;
        this.specs = specs;
        this.databaseCharset = databaseCharset;
        this.dialect = dialect;
    }

    /**
     * The table after the statement; its name is the new one when the statement renames it.
     *
     * @throws UnsupportedDdlException when the statement names a column the table does not have
     *     without IF EXISTS, which means the tracker's view of the table is not the server's
     */
    static TableDefinition apply(
            TableDefinition table,
            List<AlterSpec> specs,
            String databaseCharset,
            ServerDialect dialect) {
        return new TableAlteration(table, specs, databaseCharset, dialect).run();
    }

    private TableDefinition run() {
        String charset = table.charset();
        String convertTo = null;
        TableName name = table.name();
        for (AlterSpec spec : specs) {
            if (spec instanceof AlterSpec.DefaultCharset d) {
                charset = tableCharset(d.charset(), d.collation(), charset);
            } else if (spec instanceof AlterSpec.ConvertCharset cv) {
                convertTo = cv.charset() == null ? databaseCharset : dialect.charset(cv.charset());
                charset = convertTo;
            } else if (spec instanceof AlterSpec.RenameTable r) {
                name = r.to();
            }
        }
        keepOldColumns(charset);
        placeNewColumns(charset);
        List<String> key = key();
        if (convertTo != null) {
            convert(convertTo);
        }
        List<Column> columns = entries.stream().map(Entry::column).toList();
        if (columns.isEmpty()) {
            throw unsupported("ALTER TABLE would leave no columns");
        }
        return ColumnResolver.withKey(name, columns, key, charset);
    }

    /** A table's new default: the character set named, or the collation's, or unchanged. */
    private String tableCharset(String charset, String collation, String current) {
        if (charset != null) {
            return charset.equalsIgnoreCase("default") ? databaseCharset : dialect.charset(charset);
        }
        return dialect.charsetOfCollation(collation).orElse(current);
    }

    private void keepOldColumns(String charset) {
        Set<String> dropped = new HashSet<>();
        for (AlterSpec spec : specs) {
            if (spec instanceof AlterSpec.DropColumn d) {
                if (ColumnResolver.indexOf(table.columns(), d.name()) < 0) {
                    if (!d.ifExists()) {
                        throw unsupported("dropped column not in table: column=" + d.name());
                    }
                } else {
                    dropped.add(lower(d.name()));
                }
            }
        }
        for (Column column : table.columns()) {
            String old = lower(column.name());
            if (dropped.contains(old)) {
                continue;
            }
            AlterSpec.ChangeColumn change = changeOf(column.name());
            if (change != null) {
                if (!change.position().given()) {
                    entries.add(new Entry(resolve(change.definition(), charset), column.name()));
                }
                continue; // one with a position is placed with the added columns, below
            }
            entries.add(new Entry(renamedIfAsked(column), column.name()));
        }
    }

    private void placeNewColumns(String charset) {
        for (AlterSpec spec : specs) {
            if (spec instanceof AlterSpec.AddColumn add) {
                if (add.ifNotExists() && indexOfNew(add.definition().name()) >= 0) {
                    continue;
                }
                place(new Entry(resolve(add.definition(), charset), null), add.position());
            } else if (spec instanceof AlterSpec.ChangeColumn change) {
                if (ColumnResolver.indexOf(table.columns(), change.oldName()) < 0) {
                    if (!change.ifExists()) {
                        throw unsupported(
                                "changed column not in table: column=" + change.oldName());
                    }
                } else if (change.position().given()) {
                    place(
                            new Entry(resolve(change.definition(), charset), change.oldName()),
                            change.position());
                }
            } else if (spec instanceof AlterSpec.RenameColumn rename
                    && !rename.ifExists()
                    && ColumnResolver.indexOf(table.columns(), rename.oldName()) < 0) {
                throw unsupported("renamed column not in table: column=" + rename.oldName());
            }
        }
    }

    private void place(Entry entry, AlterSpec.Position position) {
        if (position.first()) {
            entries.add(0, entry);
        } else if (position.after() != null) {
            int after = indexOfNew(position.after());
            if (after < 0) {
                throw unsupported("AFTER names no column: column=" + position.after());
            }
            entries.add(after + 1, entry);
        } else {
            entries.add(entry);
        }
    }

    /**
     * The new key: the one added (by ADD PRIMARY KEY or a column's PRIMARY KEY), else none if
     * dropped, else the old one with renamed columns followed and dropped ones left out.
     */
    private List<String> key() {
        boolean dropped = false;
        List<String> added = null;
        for (AlterSpec spec : specs) {
            if (spec instanceof AlterSpec.DropPrimaryKey) {
                dropped = true;
            } else if (spec instanceof AlterSpec.AddPrimaryKey add) {
                added = add.columns();
            } else if (spec instanceof AlterSpec.AddColumn add && add.definition().primaryKey()) {
                added = List.of(add.definition().name());
            } else if (spec instanceof AlterSpec.ChangeColumn change
                    && change.definition().primaryKey()) {
                added = List.of(change.definition().name());
            }
        }
        if (added != null) {
            return added;
        }
        if (dropped) {
            return List.of();
        }
        List<String> key = new ArrayList<>();
        for (String oldName : table.keyColumns()) {
            for (Entry entry : entries) {
                if (entry.oldName() != null && entry.oldName().equalsIgnoreCase(oldName)) {
                    key.add(entry.column().name());
                }
            }
        }
        return key;
    }

    /**
     * CONVERT TO CHARACTER SET: every character column not in {@code binary} takes the new
     * character set; a TEXT type grows to hold as many characters as before, and in {@code binary}
     * the character types become their binary twins.
     */
    private void convert(String target) {
        for (int i = 0; i < entries.size(); i++) {
            Column column = entries.get(i).column();
            MySqlColumnType type = MySqlColumnType.parse(column.sourceType());
            if (!type.isCharacter() || "binary".equals(type.charset())) {
                continue;
            }
            if (garblesLabels(type, target)) {
                throw unsupported(
                        "CONVERT TO CHARACTER SET garbles ENUM and SET labels between these"
                                + " character sets on MariaDB: column="
                                + column.name()
                                + ", from="
                                + type.charset()
                                + ", to="
                                + target);
            }
            MySqlColumnType converted = type.withCharset(target);
            if (type.base().endsWith("text")) {
                long chars =
                        ColumnTypeRenderer.capacity(type.base())
                                / MySqlCharsets.maxBytesPerChar(type.charset());
                converted =
                        converted.withBase(
                                ColumnTypeRenderer.sized(
                                        chars * MySqlCharsets.maxBytesPerChar(target), "text"));
            }
            if (target.equals("binary")
                    && !type.base().equals("enum")
                    && !type.base().equals("set")) {
                String base = converted.base();
                String twin =
                        switch (base) {
                            case "char" -> "binary";
                            case "varchar" -> "varbinary";
                            default -> base.replace("text", "blob");
                        };
                converted =
                        new MySqlColumnType(
                                twin, converted.params(), false, false, type.compressed(), null);
            }
            entries.set(
                    i,
                    new Entry(
                            MySqlColumnTypes.column(
                                    column.name(), converted.sourceType(), null, column.nullable()),
                            entries.get(i).oldName()));
        }
    }

    /**
     * MariaDB (10.11) converts ENUM and SET labels byte for byte when CONVERT TO CHARACTER SET
     * crosses between a character set of one-byte minimum and one of two or four (ucs2, utf16,
     * utf16le, utf32): {@code 'x'} becomes {@code '?'}. The server's labels then differ from the
     * statement's, so the tracker cannot follow.
     */
    private boolean garblesLabels(MySqlColumnType type, String target) {
        boolean labels = type.base().equals("enum") || type.base().equals("set");
        return labels
                && dialect.flavor() == ServerDialect.Flavor.MARIADB
                && !type.charset().equals(target)
                && (isWide(type.charset()) || isWide(target));
    }

    private static boolean isWide(String charset) {
        return charset.equals("ucs2") || charset.startsWith("utf16") || charset.equals("utf32");
    }

    private Column resolve(ColumnDefinition definition, String charset) {
        return ColumnResolver.column(definition, charset, dialect);
    }

    private AlterSpec.ChangeColumn changeOf(String oldName) {
        for (AlterSpec spec : specs) {
            if (spec instanceof AlterSpec.ChangeColumn change
                    && change.oldName().equalsIgnoreCase(oldName)) {
                return change;
            }
        }
        return null;
    }

    private Column renamedIfAsked(Column column) {
        for (AlterSpec spec : specs) {
            if (spec instanceof AlterSpec.RenameColumn rename
                    && rename.oldName().equalsIgnoreCase(column.name())) {
                return ColumnResolver.renamed(column, rename.newName());
            }
        }
        return column;
    }

    private int indexOfNew(String name) {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).column().name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private UnsupportedDdlException unsupported(String reason) {
        return new UnsupportedDdlException(
                reason + ", table=" + table.name(), List.of(table.name()));
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
