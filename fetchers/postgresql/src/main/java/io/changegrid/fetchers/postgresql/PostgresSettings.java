package io.changegrid.fetchers.postgresql;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import io.changegrid.config.tls.DatabaseTlsKeys;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The settings of a PostgreSQL source ({@code source.type: postgresql}), defined once; the relay
 * validates and documents them with its own.
 */
public final class PostgresSettings {

    /** A plain SQL identifier: slot and publication names are written into statements. */
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    public static final ConfigKey<String> HOST =
            ConfigKey.required(
                    "source.host",
                    ValueKind.STRING,
                    "Host of the PostgreSQL server whose WAL is read.");
    public static final ConfigKey<Integer> PORT =
            ConfigKey.of("source.port", ValueKind.INT, 5432, "Port of the source server.")
                    .validatedBy(v -> v > 0 && v < 65536, "1..65535");
    public static final ConfigKey<String> DATABASE =
            ConfigKey.required(
                    "source.database",
                    ValueKind.STRING,
                    "The database captured; logical decoding reads one database per slot.");
    public static final ConfigKey<String> USER =
            ConfigKey.required(
                    "source.user",
                    ValueKind.STRING,
                    "User with the REPLICATION attribute and SELECT on the captured tables (and CREATE on the"
                            + " database to create the publication).");
    public static final ConfigKey<String> PASSWORD =
            ConfigKey.of("source.password", ValueKind.STRING, "", "That user's password.")
                    .asSecret();
    public static final ConfigKey<String> SLOT =
            ConfigKey.of(
                            "source.slot",
                            ValueKind.STRING,
                            "changegrid",
                            "The logical replication slot (pgoutput) this relay reads; one per relay. Created when"
                                    + " missing.")
                    .validatedBy(v -> IDENTIFIER.matcher(v).matches(), "lower-case identifier");
    public static final ConfigKey<String> PUBLICATION =
            ConfigKey.of(
                            "source.publication",
                            ValueKind.STRING,
                            "changegrid",
                            "The publication whose tables are decoded; created FOR the captured tables when"
                                    + " missing and source.createPublication is true.")
                    .validatedBy(v -> IDENTIFIER.matcher(v).matches(), "lower-case identifier");
    public static final ConfigKey<Boolean> CREATE_PUBLICATION =
            ConfigKey.of(
                    "source.createPublication",
                    ValueKind.BOOLEAN,
                    true,
                    "Whether the fetcher may create a missing publication; if not, start stops with the SQL"
                            + " to create it.");
    public static final ConfigKey<String> START =
            ConfigKey.of(
                            "source.start",
                            ValueKind.STRING,
                            "current",
                            "Where a relay with no saved position starts: current (the end of WAL), earliest (what"
                                    + " the slot retains) or an LSN (X/Y).")
                    .validatedBy(
                            PostgresSettings::isStartPosition, "current, earliest or an LSN X/Y");
    public static final ConfigKey<Duration> HEARTBEAT =
            ConfigKey.of(
                            "source.heartbeatInterval",
                            ValueKind.DURATION,
                            Duration.ofSeconds(1),
                            "How often an idle source's timeline advances, so consumers see progress and lag.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");
    public static final ConfigKey<Duration> STATUS_INTERVAL =
            ConfigKey.of(
                            "source.statusInterval",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "How often the fetcher reports its flushed position to the server; below the server's"
                                    + " wal_sender_timeout (60s by default).")
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

    /** TLS to the source, for the catalog and the replication connections alike. */
    public static final DatabaseTlsKeys TLS = DatabaseTlsKeys.under("source", "the source server");

    /** Every setting, in documentation order. */
    public static final List<ConfigKey<?>> KEYS =
            List.of(
                    HOST,
                    PORT,
                    DATABASE,
                    USER,
                    PASSWORD,
                    SLOT,
                    PUBLICATION,
                    CREATE_PUBLICATION,
                    START,
                    HEARTBEAT,
                    STATUS_INTERVAL,
                    CONNECT_TIMEOUT,
                    BACKOFF_MAX,
                    TLS.mode(),
                    TLS.caFile());

    private PostgresSettings() {}

    private static boolean isStartPosition(String text) {
        try {
            StartPosition.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
