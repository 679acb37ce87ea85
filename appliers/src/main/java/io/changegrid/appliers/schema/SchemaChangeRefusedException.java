package io.changegrid.appliers.schema;

import java.util.List;

/**
 * The target table needs a change the configuration does not allow (schema changes refused, or a
 * missing table while tables are not created). The message names the table and every column.
 */
public final class SchemaChangeRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SchemaChangeRefusedException(String table, List<String> changes, String setting) {
        super(
                "target table change refused by configuration: table="
                        + table
                        + ", "
                        + String.join("; ", changes)
                        + " ("
                        + setting
                        + ")");
    }
}
