package io.changegrid.deploy.cluster;

import io.changegrid.config.PrivateFile;
import io.changegrid.gridkit.tls.LocalCertificates;
import io.changegrid.protocol.security.TokenTable;
import io.changegrid.protocol.tls.ClientAuth;
import io.changegrid.protocol.tls.TlsConfig;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The credentials of a {@code local-cluster.sh start --secure} grid, made at start in the cluster's
 * {@code security/} directory (owner-only, {@code 0700}; every secret file {@code 0600}) and never
 * anywhere else:
 *
 * <pre>
 * security/ca.p12, ca.pem        a local CA, made for this cluster (its key never leaves the directory)
 * security/server.p12            the relays' and members' key and chain, for 127.0.0.1 and localhost
 * security/tls.pass              the PKCS12 stores' password
 * security/tokens                the relays' token file: sha256:&lt;hex&gt; &lt;principal&gt;
 * security/access.yaml           what each principal may do
 * security/consumer.token        the consumer group's bearer token (principal local-consumers)
 * security/ops.token             the operations token (principal ops): /v1/status, /metrics
 * security/zk-relays.pass        ZooKeeper digest password of the relays (user relays)
 * security/zk-group.pass         ZooKeeper digest password of the group (user group-&lt;name&gt;)
 * </pre>
 *
 * ZooKeeper's only client port speaks TLS with the same CA; every component connects with the
 * servers' certificate as its client certificate.
 *
 * <p>Components get secrets as {@code ${file:...}} references, never as values: the YAML files and
 * the command lines hold none.
 */
final class ClusterSecurity {

    /** The consumer group's principal in the token and access files. */
    static final String CONSUMERS = "local-consumers";

    /** The operations principal. */
    static final String OPS = "ops";

    /** The relays' ZooKeeper digest user. */
    static final String RELAYS_ZOOKEEPER_USER = "relays";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path directory;

    private ClusterSecurity(Path directory) {
        this.directory = directory;
    }

    /** The security directory of a cluster, whether or not its files exist yet. */
    static ClusterSecurity of(ClusterDirectory cluster) {
        return new ClusterSecurity(cluster.root().resolve("security"));
    }

    /**
     * Makes the CA, the servers' certificate, the tokens, the access file and the ZooKeeper
     * passwords.
     *
     * @throws IOException naming the keytool step that failed
     */
    void create() throws IOException, InterruptedException {
        Files.createDirectories(directory.getParent());
        Files.createDirectory(
                directory,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        PrivateFile.write(tlsPassword(), secret());
        new LocalCertificates(directory, tlsPassword()).create(caPem(), serverKeyStore());
        String consumerToken = secret();
        String opsToken = secret();
        PrivateFile.write(consumerToken(), consumerToken + "\n");
        PrivateFile.write(opsToken(), opsToken + "\n");
        PrivateFile.write(
                tokens(),
                "# sha256:<hex of the token> <principal>, written by local-cluster.sh --secure\n"
                        + TokenTable.SHA256
                        + TokenTable.hash(consumerToken)
                        + " "
                        + CONSUMERS
                        + "\n"
                        + TokenTable.SHA256
                        + TokenTable.hash(opsToken)
                        + " "
                        + OPS
                        + "\n");
        PrivateFile.write(
                access(),
                "principals:\n"
                        + "  "
                        + CONSUMERS
                        + ":\n"
                        + "    tables: [shop.*]\n"
                        + "  "
                        + OPS
                        + ":\n"
                        + "    operations: true\n");
        PrivateFile.write(zooKeeperPassword("relays"), secret());
        PrivateFile.write(zooKeeperPassword("group"), secret());
    }

    /** The settings a relay adds: HTTPS, tokens, the access file, ZooKeeper digest. */
    Map<String, Object> relaySettings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("http.tls.keyStore", serverKeyStore().toString());
        settings.put("http.tls.keyStorePassword", reference(tlsPassword()));
        settings.put("security.tokens", tokens().toString());
        settings.put("security.access", access().toString());
        settings.put("cluster.zookeeperUser", RELAYS_ZOOKEEPER_USER);
        settings.put("cluster.zookeeperPassword", reference(zooKeeperPassword("relays")));
        settings.putAll(zooKeeperTlsSettings());
        return settings;
    }

    /**
     * The settings a group member adds: the relays' CA and its token, an HTTPS status endpoint,
     * ZooKeeper digest as its group's user.
     */
    Map<String, Object> consumerSettings(String group) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("relay.tls.trustStore", caPem().toString());
        settings.put("relay.token", reference(consumerToken()));
        settings.put("cluster.status.tls.keyStore", serverKeyStore().toString());
        settings.put("cluster.status.tls.keyStorePassword", reference(tlsPassword()));
        settings.put("cluster.zookeeperUser", groupZooKeeperUser(group));
        settings.put("cluster.zookeeperPassword", reference(zooKeeperPassword("group")));
        settings.putAll(zooKeeperTlsSettings());
        return settings;
    }

    /**
     * TLS to the grid's ZooKeeper, whose only client port speaks TLS: the CA, and the servers'
     * certificate as every component's client certificate (ZooKeeper asks for one).
     */
    private Map<String, Object> zooKeeperTlsSettings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("cluster.zookeeperTls.enabled", "true");
        settings.put("cluster.zookeeperTls.trustStore", caPem().toString());
        settings.put("cluster.zookeeperTls.keyStore", serverKeyStore().toString());
        settings.put("cluster.zookeeperTls.keyStorePassword", reference(tlsPassword()));
        return settings;
    }

    /** The same, for the launcher's own ZooKeeper clients (and a test's). */
    ZooKeeperTls zooKeeperTls() throws IOException {
        return new ZooKeeperTls(
                true,
                new TlsConfig(
                        null,
                        null,
                        serverKeyStore(),
                        Files.readString(tlsPassword()).trim(),
                        caPem(),
                        "",
                        ClientAuth.NONE));
    }

    /** The arguments of {@code LocalZooKeeperMain} for a TLS-only ZooKeeper. */
    List<String> zooKeeperArguments() {
        return List.of(
                "--key-store",
                serverKeyStore().toString(),
                "--key-store-password-file",
                tlsPassword().toString(),
                "--trust-store",
                caPem().toString());
    }

    /** The group's ZooKeeper digest user. */
    static String groupZooKeeperUser(String group) {
        return "group-" + group;
    }

    /** The CA certificate every client of this grid trusts. */
    Path caPem() {
        return directory.resolve("ca.pem");
    }

    Path serverKeyStore() {
        return directory.resolve("server.p12");
    }

    Path tlsPassword() {
        return directory.resolve("tls.pass");
    }

    Path tokens() {
        return directory.resolve("tokens");
    }

    Path access() {
        return directory.resolve("access.yaml");
    }

    Path consumerToken() {
        return directory.resolve("consumer.token");
    }

    Path opsToken() {
        return directory.resolve("ops.token");
    }

    /** The ZooKeeper password file of {@code role}: {@code relays} or {@code group}. */
    Path zooKeeperPassword(String role) {
        return directory.resolve("zk-" + role + ".pass");
    }

    /** The files a secured grid needs to exist, for {@code add-consumer}'s check. */
    List<Path> files() {
        return List.of(caPem(), serverKeyStore(), tlsPassword(), consumerToken(), tokens());
    }

    private static String reference(Path file) {
        return "${file:" + file.toAbsolutePath() + "}";
    }

    /** 256 random bits, hex: a token or a password no one has to type. */
    private static String secret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
