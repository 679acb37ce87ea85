package io.changegrid.fetchers.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * Which server a binlog position belongs to: its {@code @@server_id}, its
 * {@code @@log_bin_basename} and, on MySQL, its {@code @@server_uuid} (MariaDB has none). A binlog
 * file and offset name a transaction on this server only: the same name on another server (a
 * promoted replica, a restored backup, an address moved to another host) is another transaction, or
 * none.
 *
 * <p>Text form, stored with the relay's replay point: {@code server_id=1;binlog=/var/lib/mysql/
 * mysql-bin} and, on MySQL, {@code ;uuid=...}.
 *
 * @param serverId {@code @@server_id}
 * @param binlogBasename {@code @@log_bin_basename}
 * @param serverUuid {@code @@server_uuid}, or empty on MariaDB
 */
public record SourceIdentity(long serverId, String binlogBasename, String serverUuid) {

    private static final String SERVER_ID = "server_id=";
    private static final String BINLOG = "binlog=";
    private static final String UUID = "uuid=";

    public SourceIdentity {
        if (binlogBasename == null || serverUuid == null) {
            throw new IllegalArgumentException(
                    "source identity needs a binlog basename and a UUID (may be empty): serverId="
                            + serverId);
        }
        if (binlogBasename.contains(";") || serverUuid.contains(";")) {
            throw new IllegalArgumentException(
                    "source identity may not contain ';': binlog="
                            + binlogBasename
                            + ", uuid="
                            + serverUuid);
        }
    }

    /** Asks the server on {@code connection} who it is. */
    static SourceIdentity read(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT @@server_id, COALESCE(@@log_bin_basename, ''), VERSION()")) {
            rows.next();
            long serverId = rows.getLong(1);
            String basename = rows.getString(2);
            if (rows.getString(3).toLowerCase(Locale.ROOT).contains("mariadb")) {
                return new SourceIdentity(serverId, basename, "");
            }
            try (ResultSet uuid = statement.executeQuery("SELECT @@server_uuid")) {
                uuid.next();
                return new SourceIdentity(serverId, basename, uuid.getString(1));
            }
        }
    }

    /** Whether the server is a MariaDB: MySQL servers have a UUID, MariaDB servers none. */
    boolean isMariaDb() {
        return serverUuid.isEmpty();
    }

    /**
     * Parses the text form.
     *
     * @throws IllegalArgumentException naming the text
     */
    public static SourceIdentity parse(String text) {
        long serverId = -1;
        String binlog = null;
        String uuid = "";
        for (String part : text.split(";", -1)) {
            try {
                if (part.startsWith(SERVER_ID)) {
                    serverId = Long.parseLong(part.substring(SERVER_ID.length()));
                } else if (part.startsWith(BINLOG)) {
                    binlog = part.substring(BINLOG.length());
                } else if (part.startsWith(UUID)) {
                    uuid = part.substring(UUID.length());
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a source identity: text=" + text, e);
            }
        }
        if (serverId < 0 || binlog == null) {
            throw new IllegalArgumentException("not a source identity: text=" + text);
        }
        return new SourceIdentity(serverId, binlog, uuid);
    }

    @Override
    public String toString() {
        return SERVER_ID
                + serverId
                + ";"
                + BINLOG
                + binlogBasename
                + (serverUuid.isEmpty() ? "" : ";" + UUID + serverUuid);
    }
}
