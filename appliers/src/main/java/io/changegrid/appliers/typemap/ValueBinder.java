package io.changegrid.appliers.typemap;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Binds one non-null value of a column's value type to one statement parameter. NULL is bound by
 * the caller with the column's {@link TargetColumn#sqlType() JDBC type}.
 */
@FunctionalInterface
public interface ValueBinder {

    /**
     * @throws SQLException from the driver
     * @throws ValueNotRepresentableException if this value has no form in the target column (a zero
     *     date in a PostgreSQL date, say)
     */
    void bind(PreparedStatement statement, int index, Object value) throws SQLException;
}
