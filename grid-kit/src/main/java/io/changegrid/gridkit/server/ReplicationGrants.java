package io.changegrid.gridkit.server;

import java.util.List;

/**
 * The replication user that every source database fixture creates: the privileges a CDC fetcher
 * needs to read the binlog and table metadata, and no more, so that a test fails where production
 * would.
 */
public final class ReplicationGrants {
    /** The replication user's name. */
    public static final String USER = "changegrid";

    /** The replication user's password. */
    public static final String PASSWORD = "changegrid-replication";

    private ReplicationGrants() {}

    /**
     * Statements that create the user, in order; the same on MariaDB 10.11 and MySQL 8.
     *
     * <p>{@code '%'} alone is enough: the fixtures create no anonymous users, which are what would
     * otherwise shadow {@code '%'} for {@code localhost} connections.
     */
    public static List<String> statements() {
        return List.of(
                "CREATE USER '" + USER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, REPLICATION CLIENT ON *.*"
                        + " TO '"
                        + USER
                        + "'@'%'");
    }
}
