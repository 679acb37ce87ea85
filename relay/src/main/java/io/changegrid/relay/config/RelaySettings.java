package io.changegrid.relay.config;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigKey;
import io.changegrid.config.ConfigSchema;
import io.changegrid.config.ValueKind;
import io.changegrid.config.ZooKeeperAuthKeys;
import io.changegrid.fetchers.FetcherProvider;
import io.changegrid.fetchers.FetcherProviders;
import io.changegrid.protocol.security.AnonymousAccess;
import io.changegrid.protocol.security.CertificatePrincipal;
import io.changegrid.protocol.security.SecuritySettings;
import io.changegrid.protocol.tls.TlsSettings;
import io.changegrid.protocol.zookeeper.ZooKeeperTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every setting of a relay, defined once: the relay's own here, and each source type's {@code
 * source.*} settings in its fetcher ({@link FetcherProvider#settings()}), chosen by {@code
 * source.type}. {@code docs/relay-configuration.md} is generated from these definitions ({@code
 * RelaySettingsReferenceTest} keeps it in step).
 */
public final class RelaySettings {

    /** Where the event buffer's memory comes from. */
    public enum BufferStorage {
        /** Direct memory: the JVM needs {@code -XX:MaxDirectMemorySize} at least the capacity. */
        DIRECT,
        /**
         * Memory-mapped files in {@code buffer.directory}: unlinked at once (tmpfs recommended), or
         * kept and recovered at restart with {@code buffer.persistent}.
         */
        MAPPED
    }

    public static final ConfigKey<String> SOURCE_TYPE =
            ConfigKey.of(
                    "source.type",
                    ValueKind.STRING,
                    "mysql",
                    "Which kind of source the relay reads: the fetcher found by this name decides which other"
                            + " source.* settings there are (below, one table per type).");
    public static final ConfigKey<Integer> SOURCE_ID =
            ConfigKey.of(
                            "source.id",
                            ValueKind.INT,
                            1,
                            "The source's id on the timeline, written into every event; unique per source in a grid.")
                    .validatedBy(v -> v >= 0 && v <= 65535, "0..65535");

    public static final ConfigKey<List<String>> CAPTURE_INCLUDE =
            ConfigKey.of(
                    "capture.include",
                    ValueKind.STRING_LIST,
                    List.of(),
                    "Tables this relay captures, as database.table patterns with * (empty: all). Several relays"
                            + " can split one source by table.");
    public static final ConfigKey<List<String>> CAPTURE_EXCLUDE =
            ConfigKey.of(
                    "capture.exclude",
                    ValueKind.STRING_LIST,
                    List.of(),
                    "Tables this relay leaves out; excludes win over includes.");
    public static final ConfigKey<Integer> CAPTURE_PARTITION =
            ConfigKey.of(
                            "capture.partition",
                            ValueKind.INT,
                            -1,
                            "The partition of every policy's partitioner this relay publishes, when relays split a"
                                    + " source (each relay one partition); -1 publishes all. Needs policies that all"
                                    + " partition into the same number of partitions.")
                    .validatedBy(v -> v >= -1 && v < 65_536, "-1..65535");

    public static final ConfigKey<Long> BUFFER_CAPACITY =
            ConfigKey.of(
                            "buffer.capacity",
                            ValueKind.BYTES,
                            256L << 20,
                            "Off-heap event buffer size; may exceed 2 GiB. The oldest whole"
                                    + " transactions are evicted when full.")
                    .validatedBy(v -> v >= 8L << 10, "at least 8KiB");
    public static final ConfigKey<Long> BUFFER_SEGMENT =
            ConfigKey.of(
                            "buffer.segmentSize",
                            ValueKind.BYTES,
                            64L << 20,
                            "Buffer segment size: a power of two up to 1GiB; also the largest transaction"
                                    + " the relay can publish whole.")
                    .validatedBy(
                            v -> v >= 4L << 10 && v <= 1L << 30 && Long.bitCount(v) == 1,
                            "a power of two from 4KiB to 1GiB");
    public static final ConfigKey<BufferStorage> BUFFER_STORAGE =
            ConfigKey.of(
                    "buffer.storage",
                    ValueKind.oneOf(BufferStorage.class),
                    BufferStorage.DIRECT,
                    "direct (needs -XX:MaxDirectMemorySize >= capacity) or mapped (files in buffer.directory).");
    public static final ConfigKey<Path> BUFFER_DIRECTORY =
            ConfigKey.of(
                    "buffer.directory",
                    ValueKind.PATH,
                    Path.of("/dev/shm"),
                    "Directory for mapped segments (tmpfs keeps them in memory).");
    public static final ConfigKey<Boolean> BUFFER_PERSISTENT =
            ConfigKey.of(
                    "buffer.persistent",
                    ValueKind.BOOLEAN,
                    false,
                    "With mapped storage: keep the segment files in buffer.directory (a directory of this"
                            + " relay's own) and recover the buffer from them at restart, so the relay serves"
                            + " what it held at once and reads the source only from after its last"
                            + " transaction (docs/relay.md).");
    public static final ConfigKey<Boolean> BUFFER_TRANSACTION_PARTS =
            ConfigKey.of(
                    "buffer.transactionParts",
                    ValueKind.BOOLEAN,
                    false,
                    "Publish a transaction larger than 1MiB in parts, so that one larger than"
                            + " buffer.segmentSize no longer stops the relay (bulk deletes, backfills);"
                            + " turn on only when every reader of this relay reads parts, and alike on"
                            + " every relay of the source (docs/relay.md).");

    public static final ConfigKey<Path> STATE_DIRECTORY =
            ConfigKey.of(
                    "state.directory",
                    ValueKind.PATH,
                    Path.of("relay-state"),
                    "Where the relay keeps its fetch position and schema history.");
    public static final ConfigKey<Duration> STATE_SYNC_INTERVAL =
            ConfigKey.of(
                            "state.syncInterval",
                            ValueKind.DURATION,
                            Duration.ofMillis(200),
                            "How often the replay point (updated after every transaction) is forced to disk: a"
                                    + " kill -9 loses nothing, a machine crash at most this much.")
                    .validatedBy(v -> !v.isNegative(), "not negative");

    public static final ConfigKey<String> HTTP_HOST =
            ConfigKey.of(
                    "http.host",
                    ValueKind.STRING,
                    "127.0.0.1",
                    "Address the relay's HTTP API listens on.");
    public static final ConfigKey<Integer> HTTP_PORT =
            ConfigKey.of(
                            "http.port",
                            ValueKind.INT,
                            7070,
                            "Port of the relay's HTTP API (0: any free port).")
                    .validatedBy(v -> v >= 0 && v < 65536, "0..65535");
    public static final ConfigKey<Long> HTTP_SERVING_MEMORY =
            ConfigKey.of(
                            "http.servingMemory",
                            ValueKind.BYTES,
                            0L,
                            "Memory that stream responses' copies of the buffer (direct buffers) may hold at"
                                    + " once, all consumers together; a poll that cannot get its share waits parked."
                                    + " 0: a quarter of the maximum heap, at most half the direct memory the buffer"
                                    + " leaves. Count it in -XX:MaxDirectMemorySize.")
                    .validatedBy(v -> v == 0 || v >= 64L << 10, "0 or at least 64KiB");
    public static final ConfigKey<Integer> HTTP_MAX_CONNECTIONS =
            ConfigKey.of(
                            "http.maxConnections",
                            ValueKind.INT,
                            1024,
                            "Open HTTP connections served at once; a request on a connection beyond it gets"
                                    + " 503 naming this key (/v1/health is always answered).")
                    .validatedBy(v -> v >= 1, "at least 1");
    public static final ConfigKey<Integer> HTTP_MAX_PARKED_POLLS =
            ConfigKey.of(
                            "http.maxParkedPolls",
                            ValueKind.INT,
                            512,
                            "Stream requests waiting parked (for new events or serving memory) at once; one"
                                    + " beyond it gets 503 naming this key.")
                    .validatedBy(v -> v >= 1, "at least 1");
    public static final ConfigKey<Integer> HTTP_ZERO_COPY_SEGMENTS =
            ConfigKey.of(
                            "http.zeroCopySegments",
                            ValueKind.INT,
                            1,
                            "Segments that binary stream responses of the whole stream may be sent from in"
                                    + " place, without a copy, at once (buffer.storage: direct only). A segment being"
                                    + " sent that the writer must evict is swapped for a spare, so up to this many"
                                    + " segments of direct memory more may be taken: count them in"
                                    + " -XX:MaxDirectMemorySize. 0: every response is copied.")
                    .validatedBy(v -> v >= 0 && v <= 64, "0..64");
    public static final ConfigKey<Duration> HTTP_EDGE_LINGER =
            ConfigKey.of(
                            "http.edgeLinger",
                            ValueKind.DURATION,
                            Duration.ZERO,
                            "At the live edge, how long a stream request that would get less than half its"
                                    + " maxBytes may wait for more, counted from its arrival: one response per few"
                                    + " transactions instead of one per transaction, each at most this much later."
                                    + " A request with timeoutMs=0 never waits. 0: answer at once.")
                    .validatedBy(
                            v -> !v.isNegative() && v.compareTo(Duration.ofMillis(100)) <= 0,
                            "0ms..100ms");

    /** TLS on the HTTP API: {@code http.tls.*}, the shape every TLS end shares. */
    public static final TlsSettings HTTP_TLS = TlsSettings.server("http.tls");

    /** {@code security.*}: defined once in the protocol module, shared with the console. */
    public static final ConfigKey<String> SECURITY_TOKENS = SecuritySettings.TOKENS;

    public static final ConfigKey<String> SECURITY_ACCESS = SecuritySettings.ACCESS;
    public static final ConfigKey<AnonymousAccess> SECURITY_ANONYMOUS = SecuritySettings.ANONYMOUS;
    public static final ConfigKey<CertificatePrincipal> SECURITY_CERTIFICATE_PRINCIPAL =
            SecuritySettings.CERTIFICATE_PRINCIPAL;

    public static final ConfigKey<String> CLUSTER_ZOOKEEPER =
            ConfigKey.of(
                    "cluster.zookeeper",
                    ValueKind.STRING,
                    "",
                    "ZooKeeper connect string (host:port,...[/chroot]) where the relay registers its source,"
                            + " endpoint and captured tables for consumer groups to find (docs/cluster.md)."
                            + " Empty: not registered.");
    public static final ConfigKey<String> CLUSTER_ADVERTISED_URL =
            ConfigKey.of(
                            "cluster.advertisedUrl",
                            ValueKind.STRING,
                            "",
                            "The base URL consumers reach this relay at, registered in ZooKeeper (empty:"
                                    + " http://<http.host>:<port>, https:// with http.tls, with the host name when"
                                    + " http.host is 0.0.0.0).")
                    .validatedBy(
                            v -> v.isEmpty() || v.matches("https?://[^/?#\\s]+(:\\d+)?/?"),
                            "empty or http(s)://host:port");

    /** The relays' ZooKeeper credentials: their registrations are theirs alone to write. */
    public static final ZooKeeperAuthKeys CLUSTER_AUTH = ZooKeeperAuthKeys.forRole("the relays");

    public static final ConfigKey<Duration> CLUSTER_SESSION_TIMEOUT =
            ConfigKey.of(
                            "cluster.sessionTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "ZooKeeper session timeout: how long a crashed relay stays registered.")
                    .validatedBy(
                            v ->
                                    v.compareTo(Duration.ofSeconds(1)) >= 0
                                            && v.compareTo(Duration.ofMinutes(10)) <= 0,
                            "1s..10m");

    public static final ConfigKey<Duration> CLUSTER_SILENCE_TIMEOUT =
            ConfigKey.of(
                            "cluster.silenceTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(30),
                            "How long the relay may receive nothing from its source (no transaction,"
                                    + " no heartbeat) before it withdraws its ZooKeeper registration;"
                                    + " it registers again once the source is heard (0: never"
                                    + " withdraw). Keep it well above source.heartbeatInterval.")
                    .validatedBy(v -> !v.isNegative(), "not negative");

    public static final ConfigKey<Integer> SNAPSHOT_CHUNK_SIZE =
            ConfigKey.of(
                            "snapshot.chunkSize",
                            ValueKind.INT,
                            1024,
                            "Rows a snapshot reads from the source per chunk, one primary-key range read"
                                    + " (docs/bootstrap.md).")
                    .validatedBy(v -> v >= 1 && v <= 1_000_000, "1..1000000");
    public static final ConfigKey<Duration> SNAPSHOT_MIN_CHUNK_INTERVAL =
            ConfigKey.of(
                            "snapshot.minChunkInterval",
                            ValueKind.DURATION,
                            Duration.ZERO,
                            "Throttle: the least time between two chunk reads of this relay, whatever the"
                                    + " number of consumers snapshotting (0: no pause).")
                    .validatedBy(v -> !v.isNegative(), "not negative");
    public static final ConfigKey<Duration> SNAPSHOT_WATERMARK_WAIT =
            ConfigKey.of(
                            "snapshot.watermarkWait",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "How long a chunk waits for the fetcher to read past its high watermark; a"
                                    + " chunk not placed by then is read again on the consumer's next request.")
                    .validatedBy(
                            v ->
                                    v.compareTo(Duration.ofMillis(10)) >= 0
                                            && v.compareTo(Duration.ofMinutes(10)) <= 0,
                            "10ms..10m");

    public static final ConfigKey<Integer> SNAPSHOT_MAX_REQUESTS =
            ConfigKey.of(
                            "snapshot.maxRequests",
                            ValueKind.INT,
                            4,
                            "Snapshot requests served at once: each holds an HTTP thread while its chunk is"
                                    + " read and placed, and its copies come out of http.servingMemory. Beyond,"
                                    + " a request gets 503 naming this key and the consumer tries again.")
                    .validatedBy(v -> v >= 1 && v <= 32, "1..32");

    /** The relay's own settings, whatever the source, in documentation order. */
    public static final List<ConfigKey<?>> KEYS = keys();

    private static List<ConfigKey<?>> keys() {
        List<ConfigKey<?>> keys =
                new ArrayList<>(
                        List.of(
                                SOURCE_TYPE,
                                SOURCE_ID,
                                CAPTURE_INCLUDE,
                                CAPTURE_EXCLUDE,
                                CAPTURE_PARTITION,
                                BUFFER_CAPACITY,
                                BUFFER_SEGMENT,
                                BUFFER_STORAGE,
                                BUFFER_DIRECTORY,
                                BUFFER_PERSISTENT,
                                BUFFER_TRANSACTION_PARTS,
                                STATE_DIRECTORY,
                                STATE_SYNC_INTERVAL,
                                HTTP_HOST,
                                HTTP_PORT,
                                HTTP_SERVING_MEMORY,
                                HTTP_MAX_CONNECTIONS,
                                HTTP_MAX_PARKED_POLLS,
                                HTTP_ZERO_COPY_SEGMENTS,
                                HTTP_EDGE_LINGER));
        keys.addAll(HTTP_TLS.keys());
        keys.addAll(
                List.of(
                        SECURITY_TOKENS,
                        SECURITY_ACCESS,
                        SECURITY_ANONYMOUS,
                        SECURITY_CERTIFICATE_PRINCIPAL,
                        CLUSTER_ZOOKEEPER,
                        CLUSTER_ADVERTISED_URL,
                        CLUSTER_SESSION_TIMEOUT,
                        CLUSTER_SILENCE_TIMEOUT,
                        CLUSTER_AUTH.user(),
                        CLUSTER_AUTH.password()));
        keys.addAll(ZooKeeperTls.KEYS);
        keys.addAll(
                List.of(
                        SNAPSHOT_CHUNK_SIZE,
                        SNAPSHOT_MIN_CHUNK_INTERVAL,
                        SNAPSHOT_WATERMARK_WAIT,
                        SNAPSHOT_MAX_REQUESTS));
        return List.copyOf(keys);
    }

    private RelaySettings() {}

    /** The settings of a relay reading a source of {@code provider}'s type: ours, then its own. */
    public static ConfigSchema schema(FetcherProvider provider) {
        List<ConfigKey<?>> keys = new ArrayList<>(KEYS);
        keys.addAll(provider.settings());
        return new ConfigSchema(keys);
    }

    /**
     * Validates a relay's settings: {@code source.type} (default {@code mysql}) chooses the
     * fetcher, whose {@code source.*} settings join the relay's.
     *
     * @param tree the YAML document as nested maps, without {@code policies}
     * @param overrides {@code path → text} from the command line; they win over the file
     * @throws ConfigException listing every problem; a key the source type does not define is
     *     unknown
     */
    public static Config load(Map<String, Object> tree, Map<String, String> overrides) {
        String type = sourceType(tree, overrides);
        FetcherProvider provider;
        try {
            provider = FetcherProviders.find(type);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    List.of("bad value: path=" + SOURCE_TYPE.path() + ": " + e.getMessage()));
        }
        try {
            return schema(provider).load(tree, overrides);
        } catch (ConfigException e) {
            String unknownSourceKey = "unknown key: path=source.";
            throw new ConfigException(
                    e.problems().stream()
                            .map(
                                    problem ->
                                            problem.startsWith(unknownSourceKey)
                                                    ? problem
                                                            + " (not a setting of source.type="
                                                            + type
                                                            + ")"
                                                    : problem)
                            .toList());
        }
    }

    /** The fetcher chosen by a relay's settings. */
    public static FetcherProvider fetcher(Config settings) {
        return FetcherProviders.find(settings.get(SOURCE_TYPE));
    }

    /**
     * {@code source.type} as the overrides, else the file (nested or dotted), else the default say.
     */
    private static String sourceType(Map<String, Object> tree, Map<String, String> overrides) {
        Object type = overrides.get(SOURCE_TYPE.path());
        if (type == null) {
            type = tree.get(SOURCE_TYPE.path());
        }
        if (type == null && tree.get("source") instanceof Map<?, ?> source) {
            type = source.get("type");
        }
        return type == null ? SOURCE_TYPE.defaultValue() : String.valueOf(type);
    }
}
