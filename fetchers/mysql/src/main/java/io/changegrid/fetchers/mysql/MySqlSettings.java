package io.changegrid.fetchers.mysql;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import io.changegrid.config.tls.DatabaseTlsKeys;
import java.time.Duration;
import java.util.List;

/**
 * The settings of a MySQL/MariaDB source ({@code source.type: mysql}), defined once; the relay
 * validates and documents them with its own.
 */
public final class MySqlSettings {

    public static final ConfigKey<String> HOST =
            ConfigKey.required(
                    "source.host",
                    ValueKind.STRING,
                    "Host of the MySQL/MariaDB server whose binlog is read.");
    public static final ConfigKey<Integer> PORT =
            ConfigKey.of("source.port", ValueKind.INT, 3306, "Port of the source server.")
                    .validatedBy(v -> v > 0 && v < 65536, "1..65535");
    public static final ConfigKey<String> USER =
            ConfigKey.required(
                    "source.user",
                    ValueKind.STRING,
                    "User with REPLICATION SLAVE, REPLICATION CLIENT (BINLOG MONITOR), SELECT and RELOAD.");
    public static final ConfigKey<String> PASSWORD =
            ConfigKey.of("source.password", ValueKind.STRING, "", "That user's password.")
                    .asSecret();
    public static final ConfigKey<Long> SERVER_ID =
            ConfigKey.of(
                            "source.serverId",
                            ValueKind.LONG,
                            5_401L,
                            "The id the relay presents as a replica; unique among the source's replicas and relays.")
                    .validatedBy(v -> v >= 1 && v <= 0xFFFF_FFFFL, "1..4294967295");
    public static final ConfigKey<String> START =
            ConfigKey.of(
                            "source.start",
                            ValueKind.STRING,
                            "current",
                            "Where a relay with no saved position starts: current (the binlog's end, with a consistent"
                                    + " schema snapshot), earliest (the oldest binlog held) or file:offset.")
                    .validatedBy(
                            MySqlSettings::isStartPosition, "current, earliest or file:offset");
    public static final ConfigKey<Duration> HEARTBEAT =
            ConfigKey.of(
                            "source.heartbeatInterval",
                            ValueKind.DURATION,
                            Duration.ofSeconds(1),
                            "How often an idle source's timeline advances, so consumers see progress and lag.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");
    public static final ConfigKey<Duration> CONNECT_TIMEOUT =
            ConfigKey.of(
                            "source.connectTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "How long one connection attempt may take.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");
    public static final ConfigKey<Duration> BACKOFF_MAX =
            ConfigKey.of(
                            "source.reconnectBackoffMax",
                            ValueKind.DURATION,
                            Duration.ofSeconds(30),
                            "Longest wait between reconnection attempts.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");
    public static final ConfigKey<List<String>> DDL_SKIP =
            ConfigKey.of(
                            "source.ddlSkip",
                            ValueKind.STRING_LIST,
                            List.of(),
                            "DDL statements on captured tables that the schema tracker cannot understand, to pass"
                                    + " anyway: each the SHA-256 (hex) that the error stopping the relay prints. The"
                                    + " tables the statement names take their schemas from the source's"
                                    + " information_schema at that point; see docs/relay.md.")
                    .validatedBy(
                            v -> v.stream().allMatch(DdlDigest::isDigest),
                            "SHA-256 digests in hex, 64 characters each");

    public static final ConfigKey<String> RESUME =
            ConfigKey.of(
                            "source.resume",
                            ValueKind.STRING,
                            "position",
                            "How a relay resumes, and so its SCNs: position (binlog file and offset, on the one"
                                    + " server they belong to; a relay finding another server refuses to resume) or"
                                    + " gtid (MariaDB with GTID replication: follows a promoted replica from the last"
                                    + " GTID, SCNs from GTID sequence numbers). Every relay of a source must use the"
                                    + " same; changing it starts a new timeline (docs/relay.md).")
                    .validatedBy(v -> v.equals("position") || v.equals("gtid"), "position or gtid");

    public static final ConfigKey<Boolean> FETCH_PIPELINE =
            ConfigKey.of(
                    "source.fetchPipeline",
                    ValueKind.BOOLEAN,
                    true,
                    "Read the binlog on one thread and assemble, encode and publish transactions on a"
                            + " second, handing events over in order (docs/relay.md, \"The fetch"
                            + " pipeline\"); false does all on the relay's fetcher thread.");

    /** TLS to the source, for the binlog connection and the JDBC ones alike. */
    public static final DatabaseTlsKeys TLS = DatabaseTlsKeys.under("source", "the source server");

    /** Every setting, in documentation order. */
    public static final List<ConfigKey<?>> KEYS =
            List.of(
                    HOST,
                    PORT,
                    USER,
                    PASSWORD,
                    SERVER_ID,
                    START,
                    HEARTBEAT,
                    CONNECT_TIMEOUT,
                    BACKOFF_MAX,
                    DDL_SKIP,
                    RESUME,
                    FETCH_PIPELINE,
                    TLS.mode(),
                    TLS.caFile());

    private MySqlSettings() {}

    private static boolean isStartPosition(String text) {
        try {
            StartPosition.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
