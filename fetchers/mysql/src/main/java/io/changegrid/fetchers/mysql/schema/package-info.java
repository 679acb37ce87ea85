/**
 * Table schemas of a MySQL or MariaDB source as of the binlog position being read.
 *
 * <p>{@link io.changegrid.fetchers.mysql.schema.InformationSchemaReader} reads every table once at
 * the start; {@link io.changegrid.fetchers.mysql.schema.SchemaTracker} keeps them current from the
 * DDL statements of the binlog's QUERY events, registering each change as a new version in the
 * source's {@link io.changegrid.events.schema.SchemaRegistry}; {@link
 * io.changegrid.fetchers.mysql.schema.SchemaHistory} persists the changes with their SCN so that a
 * restart at an older position decodes rows with the schema current then. {@link
 * io.changegrid.fetchers.mysql.schema.MySqlColumnTypes} maps column declarations to value types.
 *
 * <p>The DDL parser ({@code SqlLexer}, {@code DdlParser} and its helpers) understands the DDL that
 * changes columns, keys, names or character sets; everything it cannot understand is reported as
 * {@link io.changegrid.fetchers.mysql.schema.DdlOutcome.Unsupported}, never guessed.
 */
package io.changegrid.fetchers.mysql.schema;
