package io.changegrid.testkit;

import io.changegrid.gridkit.server.PostgresDatabase;

/**
 * JUnit 5 extension that gives a test class one fresh {@link PostgresDatabase}, created before its
 * first test and dropped after its last, also when tests fail.
 *
 * <pre>{@code
 * class OffsetStoreIT {
 *     @RegisterExtension
 *     static final PostgresDatabaseExtension POSTGRES = new PostgresDatabaseExtension();
 *
 *     @Test
 *     void shouldReturnSavedOffsetWhenConsumerRestarts() throws SQLException {
 *         var store = new OffsetStore(POSTGRES.database().jdbcUrl(), POSTGRES.database().user(), ...);
 *     }
 * }
 * }</pre>
 */
public final class PostgresDatabaseExtension extends ClassScopedFixture<PostgresDatabase> {

    /** One fresh database per test class on the PostgreSQL of {@link PostgresDatabase}. */
    public PostgresDatabaseExtension() {
        super(PostgresDatabase.class);
    }

    @Override
    protected PostgresDatabase start() {
        return PostgresDatabase.create();
    }

    /**
     * The database.
     *
     * @throws IllegalStateException before the class's {@code @BeforeAll} phase
     */
    public PostgresDatabase database() {
        return fixture();
    }
}
