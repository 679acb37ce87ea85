package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.TableSchema;

/**
 * One change to the tracker's catalog of databases, tables and views, as {@link SchemaHistory}
 * persists it. Replaying a DDL's operations in order against the catalog as it was before gives the
 * catalog after it; {@link DdlOutcome.Applied#ops()} lists them.
 */
public sealed interface CatalogOp {

    /** A database was created, or its default character set changed. */
    record PutDatabase(DatabaseDefinition database) implements CatalogOp {}

    /** A database was dropped; its tables were dropped by {@link DropTable}s before. */
    record DropDatabase(String name) implements CatalogOp {}

    /**
     * A table was created, altered or renamed: the table with {@code schema.tableId()} now is this
     * version (under this name), with this default character set.
     */
    record PutTable(TableSchema schema, String charset) implements CatalogOp {}

    /** A table was dropped. */
    record DropTable(TableName name) implements CatalogOp {}

    /** A view was created, or renamed to this name. */
    record PutView(TableName name) implements CatalogOp {}

    /** A view was dropped, or renamed away from this name. */
    record DropView(TableName name) implements CatalogOp {}
}
