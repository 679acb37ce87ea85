package io.changegrid.console.config;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ConfigSchema;
import io.changegrid.config.ValueKind;
import io.changegrid.protocol.security.SecuritySettings;
import io.changegrid.protocol.tls.RelayCredentials;
import io.changegrid.protocol.tls.TlsSettings;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The console's settings, defined once; the reference page docs/console-configuration.md is
 * generated from {@link #SCHEMA}.
 */
public final class ConsoleSettings {

    public static final ConfigKey<String> ZOOKEEPER =
            ConfigKey.required(
                    "cluster.zookeeper",
                    ValueKind.STRING,
                    "ZooKeeper connect string (host:port,...[/chroot]) of the grid: where relays register"
                            + " and consumer groups keep their Helix clusters and checkpoints.");
    public static final ConfigKey<Duration> SESSION_TIMEOUT =
            ConfigKey.of(
                            "cluster.sessionTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "ZooKeeper session timeout of the console's own session.")
                    .validatedBy(
                            v ->
                                    v.compareTo(Duration.ofSeconds(1)) >= 0
                                            && v.compareTo(Duration.ofMinutes(10)) <= 0,
                            "1s..10m");
    public static final ConfigKey<String> HTTP_HOST =
            ConfigKey.of(
                    "http.host",
                    ValueKind.STRING,
                    "127.0.0.1",
                    "Address the console's pages and API listen on.");
    public static final ConfigKey<Integer> HTTP_PORT =
            ConfigKey.of(
                            "http.port",
                            ValueKind.INT,
                            7080,
                            "Port of the console's pages and API (0: any free port).")
                    .validatedBy(v -> v >= 0 && v < 65536, "0..65535");
    public static final ConfigKey<Duration> SAMPLE_INTERVAL =
            ConfigKey.of(
                            "sample.interval",
                            ValueKind.DURATION,
                            Duration.ofSeconds(2),
                            "How often the console reads ZooKeeper and polls every relay's status and"
                                    + " metrics and every group member's status. The page asks for the last sample every"
                                    + " 2s.")
                    .validatedBy(
                            v ->
                                    v.compareTo(Duration.ofMillis(250)) >= 0
                                            && v.compareTo(Duration.ofMinutes(1)) <= 0,
                            "250ms..1m");
    public static final ConfigKey<Duration> SAMPLE_HISTORY =
            ConfigKey.of(
                            "sample.history",
                            ValueKind.DURATION,
                            Duration.ofMinutes(5),
                            "How far back the charts reach (events/s, MB/s, lag); samples older than this are"
                                    + " dropped.")
                    .validatedBy(
                            v ->
                                    v.compareTo(Duration.ofSeconds(10)) >= 0
                                            && v.compareTo(Duration.ofHours(6)) <= 0,
                            "10s..6h");
    public static final ConfigKey<Duration> PROBE_TIMEOUT =
            ConfigKey.of(
                            "sample.probeTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(1),
                            "How long the console waits for one relay's or member's answer before showing it"
                                    + " as unreachable.")
                    .validatedBy(
                            v ->
                                    v.compareTo(Duration.ofMillis(50)) >= 0
                                            && v.compareTo(Duration.ofSeconds(30)) <= 0,
                            "50ms..30s");

    /** HTTPS and client certificates on the pages and API: {@code http.tls.*}, as on a relay. */
    public static final TlsSettings HTTP_TLS = TlsSettings.server("http.tls");

    /** Every key of the console. */
    public static final ConfigSchema SCHEMA = new ConfigSchema(keys());

    private ConsoleSettings() {}

    private static List<ConfigKey<?>> keys() {
        List<ConfigKey<?>> keys =
                new ArrayList<>(
                        List.of(
                                ZOOKEEPER,
                                SESSION_TIMEOUT,
                                HTTP_HOST,
                                HTTP_PORT,
                                SAMPLE_INTERVAL,
                                SAMPLE_HISTORY,
                                PROBE_TIMEOUT));
        keys.addAll(HTTP_TLS.keys());
        // The operators' credentials, checked as a relay checks its clients' (docs/security.md).
        keys.addAll(SecuritySettings.KEYS);
        // The console's own credentials towards secured relays and members' status endpoints.
        keys.addAll(RelayCredentials.KEYS);
        keys.addAll(ZooKeeperTls.KEYS);
        return List.copyOf(keys);
    }
}
