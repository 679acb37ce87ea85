package io.changegrid.testkit;

import io.changegrid.gridkit.server.SourceDatabase;

/**
 * JUnit 5 extension that gives a test class one {@link SourceDatabase} of the {@link SourceChoice}
 * made for the run (MariaDB unless {@code -Dchangegrid.test.source=mysql8}), or of the one a test
 * names. Stopped and removed after the class, also when tests fail.
 *
 * <pre>{@code
 * class FetcherIT {
 *     @RegisterExtension
 *     static final SourceDatabaseExtension SOURCE = new SourceDatabaseExtension();
 *
 *     @Test
 *     void shouldReadGtidWhenTransactionCommits() throws SQLException {
 *         SOURCE.source().execute("CREATE DATABASE shop");
 *         if (SOURCE.source().flavor() == SourceDatabase.Flavor.MYSQL) { ... }
 *     }
 * }
 * }</pre>
 *
 * With MySQL 8 chosen and no Docker engine reachable, every test of the class is <em>skipped</em>
 * (a JUnit assumption) with the reason, never failed and never silently passed.
 */
public final class SourceDatabaseExtension extends ClassScopedFixture<SourceDatabase> {
    private final SourceChoice choice;

    /** The source chosen for this run by {@link SourceChoice#fromEnvironment()}. */
    public SourceDatabaseExtension() {
        this(SourceChoice.fromEnvironment());
    }

    /** A specific source, for a test that needs one family whatever the run chose. */
    public SourceDatabaseExtension(SourceChoice choice) {
        super(SourceDatabase.class);
        this.choice = choice;
    }

    @Override
    protected SourceDatabase start() {
        return choice.start();
    }

    /** What this extension starts. */
    public SourceChoice choice() {
        return choice;
    }

    /**
     * The running source database.
     *
     * @throws IllegalStateException before the class's {@code @BeforeAll} phase
     */
    public SourceDatabase source() {
        return fixture();
    }
}
