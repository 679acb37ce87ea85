package io.changegrid.testkit;

import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;

/**
 * JUnit 5 extension that gives a test class one private {@link MariaDbServer}, started before its
 * first test and stopped and removed after its last, also when tests fail.
 *
 * <pre>{@code
 * class BinlogFetcherIT {
 *     @RegisterExtension
 *     static final MariaDbExtension MARIADB = new MariaDbExtension();
 *
 *     @Test
 *     void shouldFetchInsertWhenRowIsAdded() throws SQLException {
 *         MARIADB.server().execute("CREATE DATABASE shop");
 *         var fetcher = new Fetcher(MARIADB.server().jdbcUrl("shop"), MARIADB.server().user(), ...);
 *     }
 * }
 * }</pre>
 *
 * Register it on a {@code static} field: an instance field would give each test its own server.
 */
public final class MariaDbExtension extends ClassScopedFixture<MariaDbServer> {
    private final MariaDbConfig config;

    /** A server with {@link MariaDbConfig#defaults()}: ROW, FULL, server id 1. */
    public MariaDbExtension() {
        this(MariaDbConfig.defaults());
    }

    /** A server with {@code config}, e.g. {@code STATEMENT} binlogs for a negative test. */
    public MariaDbExtension(MariaDbConfig config) {
        super(MariaDbServer.class);
        this.config = config;
    }

    @Override
    protected MariaDbServer start() {
        return MariaDbServer.start(config);
    }

    /**
     * The running server.
     *
     * @throws IllegalStateException before the class's {@code @BeforeAll} phase
     */
    public MariaDbServer server() {
        return fixture();
    }
}
