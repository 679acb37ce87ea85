package io.changegrid.appliers.dialect;

import java.sql.SQLException;

/**
 * The target-wide lock held while an applier compares a table with its source and changes it:
 * several appliers (a consumer group's partitions) meet the same new table or schema change at
 * about the same time, and each must see what the others made rather than make it again. Closing
 * releases it; a lock tied to the open transaction is released by its commit or rollback instead.
 */
@FunctionalInterface
public interface DdlLock extends AutoCloseable {

    @Override
    void close() throws SQLException;
}
