package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.schema.TableSchema;
import java.util.List;

/**
 * What {@link SchemaTracker#apply} made of one statement.
 *
 * <ul>
 *   <li>{@link Applied}: the statement changed the tracker's state; emit a SCHEMA_CHANGE for each
 *       captured table in {@link Applied#changed()}, and persist {@link Applied#ops()} with {@link
 *       SchemaHistory#append}.
 *   <li>{@link NotSchemaChange}: nothing about any table's columns, key or name changed (BEGIN,
 *       DML, GRANT, a secondary index, {@code ALTER TABLE ... ENGINE=InnoDB}).
 *   <li>{@link Unsupported}: the tracker could not tell what the statement did to the tables it
 *       names; its state is unchanged and no longer to be trusted for those tables. Rows of those
 *       tables cannot be decoded safely until their schemas are read again.
 * </ul>
 */
public sealed interface DdlOutcome {

    /**
     * The statement changed tables, databases or views.
     *
     * @param changed the new schema versions, in the order they were registered: created, altered
     *     and renamed tables (a rename keeps the table id)
     * @param dropped the last version of each table dropped (also by DROP DATABASE and CREATE OR
     *     REPLACE)
     * @param truncated the current version of each table truncated: its rows are gone without row
     *     events
     * @param ops the changes to the catalog, for {@link SchemaHistory}
     */
    record Applied(
            List<TableSchema> changed,
            List<TableSchema> dropped,
            List<TableSchema> truncated,
            List<CatalogOp> ops)
            implements DdlOutcome {

        public Applied {
            changed = List.copyOf(changed);
            dropped = List.copyOf(dropped);
            truncated = List.copyOf(truncated);
            ops = List.copyOf(ops);
        }
    }

    /**
     * The statement changes no table schema.
     *
     * @param reason what the statement was, e.g. {@code BEGIN}, {@code index}, {@code no change}
     */
    record NotSchemaChange(String reason) implements DdlOutcome {}

    /**
     * The statement could not be understood well enough to be sure of the schemas it leaves.
     *
     * @param tables the tables it names, where known
     * @param reason why, e.g. {@code CREATE TABLE ... SELECT: table=shop.t}
     */
    record Unsupported(List<TableName> tables, String reason) implements DdlOutcome {

        public Unsupported {
            tables = List.copyOf(tables);
        }
    }
}
