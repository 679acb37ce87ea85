package io.changegrid.fetchers.logminer.assembly;

import io.changegrid.fetchers.logminer.schema.OracleCatalog;
import java.sql.SQLException;

/** Where a table's current definition is read after a DDL row: the online catalog. */
@FunctionalInterface
public interface TableDefinitions {

    /** The table's definition now; no columns when it no longer exists. */
    OracleCatalog.Definition read(OracleCatalog.TableName name) throws SQLException;
}
