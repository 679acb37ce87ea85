package io.changegrid.testkit;

import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.SourceDatabase;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which {@link SourceDatabase} a test run uses, chosen per run so that one suite covers both server
 * families: system property {@value #PROPERTY}, else environment variable {@value
 * #ENVIRONMENT_VARIABLE}, else {@code mariadb}.
 *
 * <pre>{@code
 * mvn verify -Dchangegrid.test.source=mysql8
 * }</pre>
 */
public enum SourceChoice {
    /** A private {@code mariadbd} from the installed MariaDB server. */
    MARIADB("mariadb"),
    /** MySQL 8 through Testcontainers; tests are skipped where no Docker engine is reachable. */
    MYSQL8("mysql8");

    /** System property that selects the source; wins over the environment variable. */
    public static final String PROPERTY = "changegrid.test.source";

    /** Environment variable that selects the source when the system property is not set. */
    public static final String ENVIRONMENT_VARIABLE = "CHANGEGRID_TEST_SOURCE";

    private final String token;

    SourceChoice(String token) {
        this.token = token;
    }

    /** The value that selects this choice, e.g. {@code mysql8}. */
    public String token() {
        return token;
    }

    /**
     * The choice made for this run.
     *
     * @throws IllegalArgumentException for an unknown value, naming where it came from
     */
    public static SourceChoice fromEnvironment() {
        return resolve(System.getProperty(PROPERTY), System.getenv(ENVIRONMENT_VARIABLE));
    }

    static SourceChoice resolve(String property, String environment) {
        if (property != null && !property.isBlank()) {
            return parse(property, "system property " + PROPERTY);
        }
        if (environment != null && !environment.isBlank()) {
            return parse(environment, "environment variable " + ENVIRONMENT_VARIABLE);
        }
        return MARIADB;
    }

    private static SourceChoice parse(String value, String origin) {
        var wanted = value.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(choice -> choice.token.equals(wanted))
                .findFirst()
                .orElseThrow(
                        () ->
                                new IllegalArgumentException(
                                        "unknown test source: "
                                                + origin
                                                + "="
                                                + value
                                                + ", allowed="
                                                + Arrays.stream(values())
                                                        .map(SourceChoice::token)
                                                        .collect(
                                                                Collectors.joining(
                                                                        ", ", "[", "]"))));
    }

    /**
     * Starts a server of this choice; the caller closes it.
     *
     * @throws org.opentest4j.TestAbortedException for {@link #MYSQL8} without a Docker engine
     */
    public SourceDatabase start() {
        return switch (this) {
            case MARIADB -> MariaDbServer.start();
            case MYSQL8 -> MySqlContainerSource.start();
        };
    }
}
