package io.changegrid.testkit;

import io.changegrid.gridkit.server.PostgresServer;
import java.util.Map;

/**
 * JUnit 5 extension that gives a test class one private {@link PostgresServer} with logical
 * decoding on, started before its first test and stopped and removed after its last.
 *
 * <pre>{@code
 * class PgOutputFetcherIT {
 *     @RegisterExtension
 *     static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
 *
 *     @Test
 *     void shouldFetchInsertWhenRowIsAdded() throws SQLException {
 *         POSTGRES.server().createDatabase("shop");
 *         ...
 *     }
 * }
 * }</pre>
 *
 * Register it on a {@code static} field: an instance field would give each test its own server.
 */
public final class PostgresServerExtension extends ClassScopedFixture<PostgresServer> {
    private final Map<String, String> overrides;

    /** A server with the logical-decoding defaults. */
    public PostgresServerExtension() {
        this(Map.of());
    }

    /** A server with some settings overridden, e.g. {@code wal_level=replica}. */
    public PostgresServerExtension(Map<String, String> overrides) {
        super(PostgresServer.class);
        this.overrides = Map.copyOf(overrides);
    }

    @Override
    protected PostgresServer start() {
        return PostgresServer.start(overrides);
    }

    /** The running server. */
    public PostgresServer server() {
        return fixture();
    }
}
