package io.changegrid.testkit;

import io.changegrid.gridkit.server.FixtureStartException;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.gridkit.server.ReplicationGrants;
import io.changegrid.gridkit.server.SourceDatabase;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * MySQL 8 in a Docker container through Testcontainers, set up like {@link MariaDbServer}: binlog
 * on, {@code ROW}/{@code FULL}, a server id, GTIDs on, and the replication user of {@link
 * SourceDatabase#user()}. Root's password is {@value #ROOT_PASSWORD}.
 *
 * <pre>{@code
 * try (var mysql = MySqlContainerSource.start()) { // skipped, not failed, without Docker
 *     mysql.execute("CREATE DATABASE shop");
 * }
 * }</pre>
 *
 * <p>Where no Docker engine is reachable, {@link #start} aborts the calling test through a JUnit
 * assumption, so the test is reported as skipped with the reason. The image is {@value
 * #DEFAULT_IMAGE} unless system property {@value #IMAGE_PROPERTY} names another. The container is
 * removed on {@link #close()}, and by Testcontainers' reaper if the JVM dies.
 *
 * <p>Thread-safe after {@link #start} returns.
 */
public final class MySqlContainerSource implements SourceDatabase {
    private static final Logger LOG = LoggerFactory.getLogger(MySqlContainerSource.class);

    /** The MySQL image used unless {@value #IMAGE_PROPERTY} says otherwise. */
    public static final String DEFAULT_IMAGE = "mysql:8.0.43";

    /** System property naming another MySQL 8 image, e.g. {@code mysql:8.4}. */
    public static final String IMAGE_PROPERTY = "changegrid.test.mysql.image";

    static final String ROOT_PASSWORD = "changegrid-root";
    private static final int MYSQL_PORT = 3306;

    private final MariaDbDriverMySqlContainer container;
    private final long serverId;

    private MySqlContainerSource(MariaDbDriverMySqlContainer container, long serverId) {
        this.container = container;
        this.serverId = serverId;
    }

    /** Starts MySQL 8 with server id 1; see {@link #start(long)}. */
    public static MySqlContainerSource start() {
        return start(1);
    }

    /**
     * Starts MySQL 8 and returns once root can connect and the replication user exists.
     *
     * @throws org.opentest4j.TestAbortedException when no Docker engine is reachable
     * @throws FixtureStartException when the container starts but cannot be set up
     */
    public static MySqlContainerSource start(long serverId) {
        DockerEngine.unavailableReason()
                .ifPresent(
                        reason ->
                                Assumptions.abort(
                                        "MySQL 8 via Testcontainers skipped: "
                                                + reason
                                                + "; start a Docker engine, or run with -D"
                                                + SourceChoice.PROPERTY
                                                + "="
                                                + SourceChoice.MARIADB.token()));
        var image = System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE);
        var container =
                new MariaDbDriverMySqlContainer(
                                DockerImageName.parse(image).asCompatibleSubstituteFor("mysql"))
                        .withUsername("root")
                        .withPassword(ROOT_PASSWORD)
                        // The image passes arguments that start with "-" on to mysqld.
                        .withCommand(
                                "--server-id=" + serverId,
                                "--log-bin=mysql-bin",
                                "--binlog-format=ROW",
                                "--binlog-row-image=FULL",
                                "--gtid-mode=ON",
                                "--enforce-gtid-consistency=ON",
                                "--skip-name-resolve")
                        .withStartupTimeout(Duration.ofMinutes(3));
        var source = new MySqlContainerSource(container, serverId);
        try {
            container.start();
            source.execute(ReplicationGrants.statements().toArray(String[]::new));
        } catch (SQLException e) {
            source.close();
            throw new FixtureStartException(
                    "cannot create replication user in MySQL container: image=" + image, e);
        } catch (RuntimeException | Error e) {
            try {
                source.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        LOG.info(
                "MySQL container started: image={}, host={}, port={}, serverId={}",
                image,
                source.host(),
                source.port(),
                serverId);
        return source;
    }

    @Override
    public Flavor flavor() {
        return Flavor.MYSQL;
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getMappedPort(MYSQL_PORT);
    }

    @Override
    public long serverId() {
        return serverId;
    }

    @Override
    public String rootUser() {
        return "root";
    }

    @Override
    public String rootPassword() {
        return ROOT_PASSWORD;
    }

    /**
     * A MariaDB-driver URL; {@code allowPublicKeyRetrieval} lets it log in with MySQL 8's default
     * {@code caching_sha2_password} over a plain connection.
     */
    @Override
    public String jdbcUrl(String database) {
        return "jdbc:mariadb://"
                + host()
                + ":"
                + port()
                + "/"
                + database
                + "?allowPublicKeyRetrieval=true";
    }

    /** Stops and removes the container; idempotent. */
    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "MySqlContainerSource[image=" + container.getDockerImageName() + "]";
    }

    /**
     * {@link MySQLContainer} checks readiness over JDBC with MySQL Connector/J, which this project
     * does not otherwise need; pointing it at the MariaDB driver keeps one JDBC driver for both
     * source families.
     */
    private static final class MariaDbDriverMySqlContainer
            extends MySQLContainer<MariaDbDriverMySqlContainer> {

        MariaDbDriverMySqlContainer(DockerImageName image) {
            super(image);
        }

        @Override
        public String getDriverClassName() {
            return "org.mariadb.jdbc.Driver";
        }

        @Override
        public String getJdbcUrl() {
            return "jdbc:mariadb://"
                    + getHost()
                    + ":"
                    + getMappedPort(MYSQL_PORT)
                    + "/"
                    + getDatabaseName()
                    + "?allowPublicKeyRetrieval=true";
        }
    }
}
