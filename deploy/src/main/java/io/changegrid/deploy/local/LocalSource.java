package io.changegrid.deploy.local;

import io.changegrid.gridkit.load.LoadDialect;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The local grid's source: a private MariaDB with a binlog (or a MySQL/MariaDB given by {@code
 * --source}), or a private PostgreSQL with logical decoding ({@code --source-type postgresql}): how
 * the demo load connects to it, the SQL it speaks, and the relay's {@code source.*} settings.
 * Closing it stops a private server.
 */
final class LocalSource implements AutoCloseable {

    /** The PostgreSQL database the demo writes its schema {@code shop} into. */
    static final String POSTGRES_DATABASE = "demo";

    private final String description;
    private final LoadDialect dialect;
    private final Map<String, String> relaySettings;
    private final ConnectionFactory connections;
    private final Runnable stop;

    @FunctionalInterface
    private interface ConnectionFactory {
        Connection connect() throws SQLException;
    }

    private LocalSource(
            String description,
            LoadDialect dialect,
            Map<String, String> relaySettings,
            ConnectionFactory connections,
            Runnable stop) {
        this.description = description;
        this.dialect = dialect;
        this.relaySettings = relaySettings;
        this.connections = connections;
        this.stop = stop;
    }

    /** A private MariaDB, or the MySQL/MariaDB at {@code address} when it is not null. */
    static LocalSource mariaDb(SourceAddress address) {
        MariaDbServer privateServer =
                address == null ? MariaDbServer.start(MariaDbConfig.defaults()) : null;
        SourceAddress at =
                privateServer != null
                        ? new SourceAddress(
                                privateServer.host(),
                                privateServer.port(),
                                privateServer.user(),
                                privateServer.password())
                        : address;
        Map<String, String> settings = new HashMap<>();
        settings.put("source.host", at.host());
        settings.put("source.port", Integer.toString(at.port()));
        settings.put("source.user", at.user());
        settings.put("source.password", at.password());
        return new LocalSource(
                String.format(
                        "%s:%d (%s), database shop",
                        at.host(),
                        at.port(),
                        privateServer != null
                                ? "private MariaDB, binlog ROW"
                                : "given by --source"),
                LoadDialect.MARIADB,
                settings,
                privateServer != null ? privateServer::connect : at::connect,
                privateServer != null ? privateServer::close : () -> {});
    }

    /** A private PostgreSQL (the installed server, wal_level=logical), database {@code demo}. */
    static LocalSource postgres() throws SQLException {
        PostgresServer server = PostgresServer.start();
        try {
            server.createDatabase(POSTGRES_DATABASE);
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
        Map<String, String> settings = new HashMap<>();
        settings.put("source.type", "postgresql");
        settings.put("source.host", server.host());
        settings.put("source.port", Integer.toString(server.port()));
        settings.put("source.database", POSTGRES_DATABASE);
        settings.put("source.user", server.user());
        settings.put("source.slot", "local_grid");
        return new LocalSource(
                String.format(
                        "%s:%d (private PostgreSQL, logical decoding), database %s, schema shop",
                        server.host(), server.port(), POSTGRES_DATABASE),
                LoadDialect.POSTGRESQL,
                settings,
                () -> server.connect(POSTGRES_DATABASE),
                server::close);
    }

    String description() {
        return description;
    }

    LoadDialect dialect() {
        return dialect;
    }

    /** The relay's {@code source.*} settings for this source. */
    Map<String, String> relaySettings() {
        return relaySettings;
    }

    Connection connect() throws SQLException {
        return connections.connect();
    }

    @Override
    public void close() {
        stop.run();
    }
}
