package io.changegrid.fetchers.logminer;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import java.time.Duration;
import java.util.List;

/**
 * The settings of an Oracle LogMiner source ({@code source.type: logminer}), defined once; the
 * relay validates and documents them with its own.
 */
public final class LogMinerSettings {

    /** {@code source.dialect} of a real Oracle database. */
    public static final String ORACLE = "oracle";

    /** {@code source.dialect} of the PostgreSQL stand-in the tests and the bench mine. */
    public static final String STAND_IN = "postgresql-stand-in";

    public static final ConfigKey<String> URL =
            ConfigKey.required(
                    "source.url",
                    ValueKind.STRING,
                    "JDBC URL of the Oracle database mined, e.g. jdbc:oracle:thin:@//db1:1521/ORCLPDB1 (the"
                            + " ojdbc11 driver ships with the relay).");
    public static final ConfigKey<String> USER =
            ConfigKey.required(
                    "source.user",
                    ValueKind.STRING,
                    "User with LOGMINING, SELECT ANY TRANSACTION, SELECT_CATALOG_ROLE and EXECUTE_CATALOG_ROLE,"
                            + " owning the one-row flush table LOG_MINING_FLUSH (see"
                            + " docs/sources/oracle-logminer.md).");
    public static final ConfigKey<String> PASSWORD =
            ConfigKey.of("source.password", ValueKind.STRING, "", "That user's password.")
                    .asSecret();
    public static final ConfigKey<String> START =
            ConfigKey.of(
                            "source.start",
                            ValueKind.STRING,
                            "current",
                            "Where a relay with no saved position starts: current (the database's current SCN) or"
                                    + " an SCN. Transactions begun before it are not published.")
                    .validatedBy(LogMinerSettings::isStart, "current or a non-negative SCN");
    public static final ConfigKey<String> DIALECT =
            ConfigKey.of(
                            "source.dialect",
                            ValueKind.STRING,
                            ORACLE,
                            "oracle, or postgresql-stand-in: the PostgreSQL stand-in of the project's tests and"
                                    + " bench, which serves LogMiner's views; never for production.")
                    .validatedBy(
                            v -> v.equals(ORACLE) || v.equals(STAND_IN),
                            ORACLE + " or " + STAND_IN);
    public static final ConfigKey<Long> WINDOW_MAX_SCNS =
            ConfigKey.of(
                            "source.windowMaxScns",
                            ValueKind.LONG,
                            100_000L,
                            "Largest SCN range one LogMiner session mines; a window reaches at most to the"
                                    + " current SCN.")
                    .validatedBy(v -> v > 0, "positive");
    public static final ConfigKey<Duration> POLL_INTERVAL =
            ConfigKey.of(
                            "source.pollInterval",
                            ValueKind.DURATION,
                            Duration.ofMillis(500),
                            "How long the fetcher waits when the database's SCN has not moved.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");
    public static final ConfigKey<Integer> FETCH_SIZE =
            ConfigKey.of(
                            "source.fetchSize",
                            ValueKind.INT,
                            2_000,
                            "Rows of V$LOGMNR_CONTENTS fetched per round trip.")
                    .validatedBy(v -> v > 0, "positive");
    public static final ConfigKey<Duration> HEARTBEAT =
            ConfigKey.of(
                            "source.heartbeatInterval",
                            ValueKind.DURATION,
                            Duration.ofSeconds(1),
                            "How often an idle source's timeline advances, so consumers see progress and lag.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");
    public static final ConfigKey<Duration> BACKOFF_MAX =
            ConfigKey.of(
                            "source.reconnectBackoffMax",
                            ValueKind.DURATION,
                            Duration.ofSeconds(30),
                            "Longest wait between reconnection attempts.")
                    .validatedBy(v -> !v.isNegative() && !v.isZero(), "positive");

    /** Every setting, in documentation order. */
    public static final List<ConfigKey<?>> KEYS =
            List.of(
                    URL,
                    USER,
                    PASSWORD,
                    START,
                    DIALECT,
                    WINDOW_MAX_SCNS,
                    POLL_INTERVAL,
                    FETCH_SIZE,
                    HEARTBEAT,
                    BACKOFF_MAX);

    private LogMinerSettings() {}

    private static boolean isStart(String text) {
        if (text.equals("current")) {
            return true;
        }
        try {
            return Long.parseLong(text) >= 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
