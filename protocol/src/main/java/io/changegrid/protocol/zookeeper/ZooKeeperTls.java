package io.changegrid.protocol.zookeeper;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.tls.TlsMaterial;
import io.changegrid.protocol.tls.TlsSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * TLS to ZooKeeper ({@code cluster.zookeeperTls.*}), defined once for the relay, consumer group
 * members, the CLI and the console: whether to connect over TLS, the CA certificates the servers'
 * certificates are checked against, and an optional client certificate. The ZooKeeper client's own
 * mechanism does the work (Netty socket, {@code zookeeper.client.secure}, {@code zookeeper.ssl.*});
 * this record only says what to set.
 *
 * <p>Two ways in: {@link #clientConfig} for the ZooKeeper handles we open ourselves ({@link
 * ZooKeeperSession}), and {@link #applyToJvm} for Helix's, which Helix 2.0.1 opens with {@code new
 * ZooKeeper(servers, timeout, watcher)} (its {@code ZkConnection} takes no {@link ZKClientConfig}),
 * so that they read these settings from the system properties like every handle created without a
 * config.
 *
 * <p>ZooKeeper reads a PEM client key and its chain from one file: with PEM files, {@code
 * certificate} and {@code privateKey} must name the same file; or give a PKCS12 {@code keyStore}.
 *
 * @param enabled whether to connect over TLS
 * @param tls the trust store (empty: the JDK's CAs) and the optional client certificate
 */
public record ZooKeeperTls(boolean enabled, TlsConfig tls) {

    /** Plain connections. */
    public static final ZooKeeperTls NONE = new ZooKeeperTls(false, TlsConfig.NONE);

    /** The prefix of the settings. */
    public static final String PREFIX = "cluster.zookeeperTls";

    /** Whether to connect to ZooKeeper over TLS. */
    public static final ConfigKey<Boolean> ENABLED =
            ConfigKey.of(
                    PREFIX + ".enabled",
                    ValueKind.BOOLEAN,
                    false,
                    "Connect to ZooKeeper over TLS (its secureClientPort); the files below say what"
                            + " to trust and which certificate to show (docs/security.md).");

    /** The files' settings: the client shape every TLS client shares. */
    public static final TlsSettings FILES = TlsSettings.client(PREFIX, "the ZooKeeper servers'");

    /** Every key, in documentation order. */
    public static final List<ConfigKey<?>> KEYS = keys();

    private static final String SSL = "zookeeper.ssl.";

    public ZooKeeperTls {
        tls = tls == null ? TlsConfig.NONE : tls;
    }

    /**
     * The settings of a loaded configuration whose schema holds {@link #KEYS}.
     *
     * @throws ConfigException naming every bad key
     */
    public static ZooKeeperTls read(Config config) {
        TlsConfig tls = FILES.read(config);
        boolean enabled = config.get(ENABLED);
        if (tls.certificate() != null
                && !tls.certificate().toAbsolutePath().equals(tls.privateKey().toAbsolutePath())) {
            throw new ConfigException(
                    List.of(
                            "bad value: path="
                                    + PREFIX
                                    + ".privateKey: ZooKeeper reads a PEM key and its chain from"
                                    + " one file; name that file in both "
                                    + PREFIX
                                    + ".certificate and "
                                    + PREFIX
                                    + ".privateKey, or give "
                                    + PREFIX
                                    + ".keyStore"));
        }
        if (!enabled && !tls.files().isEmpty()) {
            throw new ConfigException(
                    List.of(
                            "bad value: path="
                                    + ENABLED.path()
                                    + ", value=false: TLS files are given for ZooKeeper but TLS is"
                                    + " off; set it to true or remove them"));
        }
        return new ZooKeeperTls(enabled, tls);
    }

    /**
     * The ZooKeeper client properties this stands for; empty when TLS is off.
     *
     * @throws UncheckedIOException if a trust store cannot be read to tell PEM from PKCS12
     */
    public Map<String, String> clientProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        if (!enabled) {
            return properties;
        }
        properties.put(ZKClientConfig.SECURE_CLIENT, "true");
        properties.put(
                ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET,
                "org.apache.zookeeper.ClientCnxnSocketNetty");
        if (tls.keyStore() != null) {
            store(properties, "keyStore", tls.keyStore(), "PKCS12", tls.keyStorePassword());
        } else if (tls.certificate() != null) {
            store(properties, "keyStore", tls.certificate(), "PEM", "");
        }
        if (tls.trustStore() != null) {
            store(
                    properties,
                    "trustStore",
                    tls.trustStore(),
                    pem(tls.trustStore()) ? "PEM" : "PKCS12",
                    tls.trustStorePassword());
        }
        return properties;
    }

    /** A client configuration for one ZooKeeper handle: the JVM's, with these settings on top. */
    public ZKClientConfig clientConfig() {
        ZKClientConfig config = new ZKClientConfig();
        clientProperties().forEach(config::setProperty);
        return config;
    }

    /**
     * Sets these settings as the JVM's ZooKeeper client properties, for the handles Helix opens
     * without a client configuration. Nothing when TLS is off, so a plain grid changes nothing.
     */
    public void applyToJvm() {
        clientProperties().forEach(System::setProperty);
    }

    @Override
    public String toString() {
        return "ZooKeeperTls[enabled=" + enabled + ", tls=" + tls + "]";
    }

    private static void store(
            Map<String, String> properties, String which, Path file, String type, String password) {
        properties.put(SSL + which + ".location", file.toAbsolutePath().toString());
        properties.put(SSL + which + ".type", type);
        if (!password.isEmpty()) {
            properties.put(SSL + which + ".password", password);
        }
    }

    private static boolean pem(Path file) {
        try {
            return TlsMaterial.isPem(file);
        } catch (IOException e) {
            throw new UncheckedIOException("trust store not readable: file=" + file, e);
        }
    }

    private static List<ConfigKey<?>> keys() {
        List<ConfigKey<?>> keys = new ArrayList<>();
        keys.add(ENABLED);
        keys.addAll(FILES.keys());
        return List.copyOf(keys);
    }
}
