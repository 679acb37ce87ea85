package io.changegrid.fetchers.mysql;

import io.changegrid.config.tls.DatabaseTls;
import io.changegrid.config.tls.TlsConnections;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * Everything a binlog fetcher needs, validated at construction: every problem is reported at once,
 * each naming its setting.
 *
 * @param host the source server's host
 * @param port its port
 * @param user a user with REPLICATION SLAVE and REPLICATION CLIENT (BINLOG MONITOR) privileges
 * @param password that user's password
 * @param serverId the id this fetcher presents as a replica; unique among the source's replicas
 * @param sourceId the source's id in every frame (0..65535)
 * @param capture which tables this relay tracks and may capture
 * @param plan what of the captured tables is published, and how: the relay's policies (several
 *     relays can split one source by partition)
 * @param start where to start when the relay has no saved position
 * @param heartbeatInterval how often an idle source's timeline advances
 * @param connectTimeout how long one connection attempt may take
 * @param reconnectBackoffMax the longest wait between reconnection attempts
 * @param maxTransactionBytes the largest transaction (encoded) the relay can publish whole
 * @param ddlSkip digests ({@link DdlDigest}) of DDL statements the tracker cannot understand that
 *     the operator chose to skip, their tables' schemas read from the source instead
 * @param tls TLS to the source, for the binlog connection and the JDBC ones alike
 * @param resume how the fetcher resumes, and so the timeline of its SCNs ({@link ResumeMode})
 * @param pipeline whether the binlog is read on one thread and transactions assembled and encoded
 *     on another ({@link FetchPipeline}); else all on one
 */
public record BinlogFetcherConfig(
        String host,
        int port,
        String user,
        String password,
        long serverId,
        int sourceId,
        TableFilter capture,
        CapturePlan plan,
        StartPosition start,
        Duration heartbeatInterval,
        Duration connectTimeout,
        Duration reconnectBackoffMax,
        int maxTransactionBytes,
        Set<String> ddlSkip,
        DatabaseTls tls,
        ResumeMode resume,
        boolean pipeline) {

    /**
     * A configuration that resumes by position ({@link ResumeMode#POSITION}), the fetch pipeline
     * on.
     */
    public BinlogFetcherConfig(
            String host,
            int port,
            String user,
            String password,
            long serverId,
            int sourceId,
            TableFilter capture,
            CapturePlan plan,
            StartPosition start,
            Duration heartbeatInterval,
            Duration connectTimeout,
            Duration reconnectBackoffMax,
            int maxTransactionBytes,
            Set<String> ddlSkip,
            DatabaseTls tls) {
        this(
                host,
                port,
                user,
                password,
                serverId,
                sourceId,
                capture,
                plan,
                start,
                heartbeatInterval,
                connectTimeout,
                reconnectBackoffMax,
                maxTransactionBytes,
                ddlSkip,
                tls,
                ResumeMode.POSITION,
                true);
    }

    /** A configuration with TLS as the server prefers ({@link DatabaseTls#PREFERRED}). */
    public BinlogFetcherConfig(
            String host,
            int port,
            String user,
            String password,
            long serverId,
            int sourceId,
            TableFilter capture,
            CapturePlan plan,
            StartPosition start,
            Duration heartbeatInterval,
            Duration connectTimeout,
            Duration reconnectBackoffMax,
            int maxTransactionBytes,
            Set<String> ddlSkip) {
        this(
                host,
                port,
                user,
                password,
                serverId,
                sourceId,
                capture,
                plan,
                start,
                heartbeatInterval,
                connectTimeout,
                reconnectBackoffMax,
                maxTransactionBytes,
                ddlSkip,
                DatabaseTls.PREFERRED);
    }

    /** A configuration that skips no DDL. */
    public BinlogFetcherConfig(
            String host,
            int port,
            String user,
            String password,
            long serverId,
            int sourceId,
            TableFilter capture,
            CapturePlan plan,
            StartPosition start,
            Duration heartbeatInterval,
            Duration connectTimeout,
            Duration reconnectBackoffMax,
            int maxTransactionBytes) {
        this(
                host,
                port,
                user,
                password,
                serverId,
                sourceId,
                capture,
                plan,
                start,
                heartbeatInterval,
                connectTimeout,
                reconnectBackoffMax,
                maxTransactionBytes,
                Set.of(),
                DatabaseTls.PREFERRED);
    }

    public BinlogFetcherConfig {
        List<String> problems = new ArrayList<>();
        if (host == null || host.isBlank()) {
            problems.add("source.host must not be empty");
        }
        if (port < 1 || port > 65535) {
            problems.add("source.port out of range: value=" + port);
        }
        if (user == null || user.isBlank()) {
            problems.add("source.user must not be empty");
        }
        if (password == null) {
            problems.add("source.password must be given (may be empty)");
        }
        if (serverId < 1 || serverId > 0xFFFF_FFFFL) {
            problems.add("source.serverId out of range 1..4294967295: value=" + serverId);
        }
        if (sourceId < 0 || sourceId > 0xFFFF) {
            problems.add("source.id out of range 0..65535: value=" + sourceId);
        }
        if (capture == null) {
            problems.add("capture must be given");
        }
        if (plan == null) {
            problems.add("capture plan must be given");
        }
        if (start == null) {
            problems.add("source.start must be given");
        }
        checkPositive(problems, "source.heartbeatInterval", heartbeatInterval);
        checkPositive(problems, "source.connectTimeout", connectTimeout);
        checkPositive(problems, "source.reconnectBackoffMax", reconnectBackoffMax);
        if (maxTransactionBytes < 1024) {
            problems.add("maxTransactionBytes must be at least 1024: value=" + maxTransactionBytes);
        }
        if (ddlSkip == null) {
            problems.add("source.ddlSkip must be given (may be empty)");
        } else {
            ddlSkip.stream()
                    .filter(digest -> !DdlDigest.isDigest(digest))
                    .forEach(
                            digest ->
                                    problems.add(
                                            "source.ddlSkip entry is not a SHA-256 in hex: value="
                                                    + digest));
            ddlSkip = Set.copyOf(ddlSkip.stream().map(d -> d.toLowerCase(Locale.ROOT)).toList());
        }
        if (tls == null) {
            problems.add("source.tls must be given");
        }
        if (resume == null) {
            problems.add("source.resume must be given");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "invalid fetcher configuration: " + String.join("; ", problems));
        }
    }

    private static void checkPositive(List<String> problems, String key, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            problems.add(key + " must be positive: value=" + value);
        }
    }

    /** This configuration with the fetch pipeline on or off. */
    public BinlogFetcherConfig withPipeline(boolean on) {
        return new BinlogFetcherConfig(
                host,
                port,
                user,
                password,
                serverId,
                sourceId,
                capture,
                plan,
                start,
                heartbeatInterval,
                connectTimeout,
                reconnectBackoffMax,
                maxTransactionBytes,
                ddlSkip,
                tls,
                resume,
                on);
    }

    /** The JDBC URL of the source, for checks and schema snapshots. */
    public String jdbcUrl() {
        return "jdbc:mariadb://" + host + ":" + port + "/";
    }

    /** A JDBC connection to the source as {@link #user()}, with {@link #tls()}. */
    public Connection connect() throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", user);
        credentials.setProperty("password", password);
        return TlsConnections.open(jdbcUrl(), credentials, tls);
    }

    /** This configuration with the password masked, for logs. */
    @Override
    public String toString() {
        return "BinlogFetcherConfig[host="
                + host
                + ", port="
                + port
                + ", user="
                + user
                + ", password=****, serverId="
                + serverId
                + ", sourceId="
                + sourceId
                + ", capture="
                + capture
                + ", plan="
                + (plan == null || plan.isEverything() ? "everything" : "policies")
                + ", start="
                + start
                + ", heartbeatInterval="
                + heartbeatInterval
                + ", connectTimeout="
                + connectTimeout
                + ", reconnectBackoffMax="
                + reconnectBackoffMax
                + ", maxTransactionBytes="
                + maxTransactionBytes
                + ", ddlSkip="
                + ddlSkip
                + ", tls="
                + tls
                + ", resume="
                + resume
                + ", pipeline="
                + pipeline
                + "]";
    }
}
