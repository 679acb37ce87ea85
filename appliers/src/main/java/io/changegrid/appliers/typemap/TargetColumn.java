package io.changegrid.appliers.typemap;

import io.changegrid.events.schema.Column;

/**
 * One source column as the target declares and writes it.
 *
 * @param source the source column
 * @param declaration the target's column type in DDL, e.g. {@code numeric(10,2)}
 * @param placeholder the parameter in a VALUES list, {@code ?} or a cast around it such as {@code
 *     CAST(? AS json)}
 * @param sqlType the {@link java.sql.Types} code NULL is bound with
 * @param binder binds non-null values
 */
public record TargetColumn(
        Column source, String declaration, String placeholder, int sqlType, ValueBinder binder) {

    /** The source column's name, which the target column keeps. */
    public String name() {
        return source.name();
    }
}
