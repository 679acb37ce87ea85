package io.changegrid.protocol.tls;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ValueKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one shape of TLS settings, defined once for both ends of an HTTP connection: a relay or a
 * status endpoint ({@link #server}, e.g. under {@code http.tls}) and a relay's clients ({@link
 * #client}, e.g. under {@code relay.tls}). Each program puts the keys of its instance into its own
 * {@link io.changegrid.config.ConfigSchema}, so they appear in its generated reference, and reads
 * them back with {@link #read}, which reports every problem at once, naming the key.
 *
 * <pre>
 * &lt;prefix&gt;.certificate         PEM certificate chain, leaf first   } or keyStore
 * &lt;prefix&gt;.privateKey          PEM PKCS#8 private key               }
 * &lt;prefix&gt;.keyStore            PKCS12 key store                      } or certificate + privateKey
 * &lt;prefix&gt;.keyStorePassword    its password (secret)
 * &lt;prefix&gt;.trustStore          PEM CA certificates or PKCS12 trust store
 * &lt;prefix&gt;.trustStorePassword  the PKCS12 trust store's password (secret)
 * &lt;prefix&gt;.clientAuth          none | want | need   (servers only)
 * </pre>
 */
public final class TlsSettings {

    private final String prefix;
    private final boolean server;
    private final ConfigKey<String> certificate;
    private final ConfigKey<String> privateKey;
    private final ConfigKey<String> keyStore;
    private final ConfigKey<String> keyStorePassword;
    private final ConfigKey<String> trustStore;
    private final ConfigKey<String> trustStorePassword;
    private final ConfigKey<ClientAuth> clientAuth;

    private TlsSettings(String prefix, boolean server, String peer) {
        this.prefix = prefix;
        this.server = server;
        String own = server ? "The server's" : "The client's";
        this.certificate =
                file(
                        "certificate",
                        own
                                + " certificate chain as a PEM file, leaf first"
                                + (server
                                        ? " (set with privateKey to serve HTTPS)"
                                        : " (mutual TLS)")
                                + "; re-read when it changes.");
        this.privateKey =
                file(
                        "privateKey",
                        "The PEM PKCS#8 private key of certificate (BEGIN PRIVATE KEY; convert others with"
                                + " openssl pkcs8 -topk8 -nocrypt).");
        this.keyStore =
                file(
                        "keyStore",
                        "Instead of certificate and privateKey: a PKCS12 key store with "
                                + (server
                                        ? "the server's key and chain; re-read when it changes."
                                        : "the client's key and chain."));
        this.keyStorePassword =
                ConfigKey.of(
                                prefix + ".keyStorePassword",
                                ValueKind.STRING,
                                "",
                                "The key store's password, also its key's.")
                        .asSecret();
        this.trustStore =
                file(
                        "trustStore",
                        server
                                ? "CA certificates client certificates are checked against: a PEM file or a"
                                        + " PKCS12 trust store. Needed by clientAuth want or need."
                                : "CA certificates "
                                        + peer
                                        + " certificate is checked against: a PEM file or a"
                                        + " PKCS12 trust store (empty: the JDK's CAs).");
        this.trustStorePassword =
                ConfigKey.of(
                                prefix + ".trustStorePassword",
                                ValueKind.STRING,
                                "",
                                "The PKCS12 trust store's password (a PEM file needs none).")
                        .asSecret();
        this.clientAuth =
                ConfigKey.of(
                        prefix + ".clientAuth",
                        ValueKind.oneOf(ClientAuth.class),
                        ClientAuth.NONE,
                        "Mutual TLS: none, want (a certificate is asked for, and names the principal when"
                                + " shown) or need (connections without a trusted certificate are refused).");
    }

    /** The settings of a TLS server under {@code prefix}, e.g. {@code http.tls}. */
    public static TlsSettings server(String prefix) {
        return new TlsSettings(prefix, true, "");
    }

    /** The settings of a relay's client under {@code prefix}, e.g. {@code relay.tls}. */
    public static TlsSettings client(String prefix) {
        return client(prefix, "the relay's");
    }

    /**
     * The settings of a TLS client under {@code prefix} whose server is {@code peer}, e.g. {@code
     * the ZooKeeper servers'}.
     */
    public static TlsSettings client(String prefix, String peer) {
        return new TlsSettings(prefix, false, peer);
    }

    /** The keys, in documentation order, for the program's schema. */
    public List<ConfigKey<?>> keys() {
        List<ConfigKey<?>> keys =
                new ArrayList<>(
                        List.of(
                                certificate,
                                privateKey,
                                keyStore,
                                keyStorePassword,
                                trustStore,
                                trustStorePassword));
        if (server) {
            keys.add(clientAuth);
        }
        return keys;
    }

    /** The key of the client-certificate mode (servers only). */
    public ConfigKey<ClientAuth> clientAuthKey() {
        return clientAuth;
    }

    /** The prefix, e.g. {@code http.tls}. */
    public String prefix() {
        return prefix;
    }

    /**
     * The validated TLS files of a loaded configuration.
     *
     * @throws ConfigException listing every problem, each naming its key
     */
    public TlsConfig read(Config config) {
        List<String> problems = new ArrayList<>();
        Path cert = path(config, certificate, problems);
        Path key = path(config, privateKey, problems);
        Path store = path(config, keyStore, problems);
        Path trust = path(config, trustStore, problems);
        ClientAuth auth = server ? config.get(clientAuth) : ClientAuth.NONE;
        if ((cert == null) != (key == null)) {
            problems.add(
                    "bad value: path="
                            + (cert == null ? certificate : privateKey).path()
                            + ": "
                            + certificate.path()
                            + " and "
                            + privateKey.path()
                            + " go together");
        }
        if (cert != null && store != null) {
            problems.add(
                    "bad value: path="
                            + keyStore.path()
                            + ": give "
                            + keyStore.path()
                            + " or "
                            + certificate.path()
                            + " with "
                            + privateKey.path()
                            + ", not both");
        }
        if (server && auth != ClientAuth.NONE && trust == null) {
            problems.add(
                    "missing key: path="
                            + trustStore.path()
                            + ": "
                            + clientAuth.path()
                            + "="
                            + auth.name().toLowerCase(java.util.Locale.ROOT)
                            + " checks client certificates against it");
        }
        if (server && auth != ClientAuth.NONE && cert == null && store == null) {
            problems.add(
                    "bad value: path="
                            + clientAuth.path()
                            + ": client certificates need TLS: set "
                            + certificate.path()
                            + " and "
                            + privateKey.path()
                            + ", or "
                            + keyStore.path());
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new TlsConfig(
                cert,
                key,
                store,
                config.get(keyStorePassword),
                trust,
                config.get(trustStorePassword),
                auth);
    }

    private ConfigKey<String> file(String name, String doc) {
        return ConfigKey.of(prefix + "." + name, ValueKind.STRING, "", doc);
    }

    private static Path path(Config config, ConfigKey<String> key, List<String> problems) {
        String text = config.get(key);
        if (text == null || text.isBlank()) {
            return null;
        }
        Path path = Path.of(text.trim());
        if (!Files.isReadable(path)) {
            problems.add(
                    "bad value: path=" + key.path() + ", value=" + path + ": not a readable file");
        }
        return path;
    }
}
