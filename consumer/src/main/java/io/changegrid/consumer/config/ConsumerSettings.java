package io.changegrid.consumer.config;

import io.changegrid.config.ConfigKey;
import io.changegrid.config.ConfigSchema;
import io.changegrid.config.ValueKind;
import io.changegrid.protocol.tls.RelayCredentials;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Every setting of the consumer library, defined once: the rules and defaults {@code
 * Consumer.builder()} validates against, and the YAML keys of {@code ConsumerMain} but for the
 * {@code cluster.*} keys of a consumer group, which the consumer-group module defines ({@code
 * GroupSettings}). A reference page can be generated with {@link
 * io.changegrid.config.ConfigReference}.
 */
public final class ConsumerSettings {

    public static final ConfigKey<List<String>> RELAYS =
            ConfigKey.of(
                            "relays",
                            ValueKind.STRING_LIST,
                            List.of(),
                            "Base URLs of relays of one source, e.g. http://relay1:7070 or https://relay1:7443; the consumer"
                                    + " pulls from one and fails over to the next in this order. Required,"
                                    + " unless a group member finds its relays in ZooKeeper (cluster.zookeeper).")
                    .validatedBy(
                            ConsumerSettings::areRelayUrls, "one or more http(s)://host:port URLs");

    public static final ConfigKey<List<String>> SUBSCRIPTION_TABLES =
            ConfigKey.of(
                            "subscription.tables",
                            ValueKind.STRING_LIST,
                            List.of(),
                            "Tables received, as database.table patterns with * (empty: every table the relay"
                                    + " captures).")
                    .validatedBy(
                            ConsumerSettings::areTablePatterns,
                            "database.table patterns without commas");
    public static final ConfigKey<Integer> SUBSCRIPTION_PARTITION =
            ConfigKey.of(
                            "subscription.partition",
                            ValueKind.INT,
                            0,
                            "The partition received, by key hash: 0 .. subscription.partitions - 1.")
                    .validatedBy(v -> v >= 0, "at least 0");
    public static final ConfigKey<Integer> SUBSCRIPTION_PARTITIONS =
            ConfigKey.of(
                            "subscription.partitions",
                            ValueKind.INT,
                            1,
                            "The number of partitions the stream is split into (1: not split).")
                    .validatedBy(v -> v >= 1 && v <= 65_536, "1..65536");

    public static final ConfigKey<StartPosition> START =
            ConfigKey.of(
                    "start",
                    ValueKind.oneOf(StartPosition.class),
                    StartPosition.OLDEST,
                    "Where a consumer without a checkpoint starts: oldest (the oldest transaction a"
                            + " relay holds; the live stream only) or snapshot (a snapshot of the"
                            + " subscription at the relay's newest SCN, then the live stream; see"
                            + " docs/bootstrap.md). A consumer with a checkpoint continues after it,"
                            + " and finishes a snapshot it checkpointed in.");
    public static final ConfigKey<TooOldAction> BOOTSTRAP_ON_TOO_OLD =
            ConfigKey.of(
                    "bootstrap.onTooOld",
                    ValueKind.oneOf(TooOldAction.class),
                    TooOldAction.FAIL,
                    "What to do when every relay answers that the checkpoint is older than its"
                            + " buffer (410): fail (stop with BootstrapRequiredException) or snapshot"
                            + " (begin a snapshot at the relay's newest SCN and go on; the checkpoint"
                            + " store must keep a snapshot cursor).");

    public static final ConfigKey<Long> BUFFER_CAPACITY =
            ConfigKey.of(
                            "buffer.capacity",
                            ValueKind.BYTES,
                            32L << 20,
                            "Consumer buffer size (heap). The puller waits while it is full; a"
                                    + " transaction larger than this stops the consumer with an error.")
                    .validatedBy(v -> v >= 64L << 10 && v <= 1L << 30, "64KiB..1GiB");

    public static final ConfigKey<Long> FETCH_MAX_BYTES =
            ConfigKey.of(
                            "fetch.maxBytes",
                            ValueKind.BYTES,
                            1L << 20,
                            "Soft size limit of one relay response (the relay always sends at least one whole"
                                    + " transaction).")
                    .validatedBy(v -> v >= 1L << 10 && v <= 64L << 20, "1KiB..64MiB");
    public static final ConfigKey<Boolean> FETCH_GZIP =
            ConfigKey.of(
                    "fetch.gzip",
                    ValueKind.BOOLEAN,
                    false,
                    "Ask relays for gzip-compressed responses: less network, more CPU on both sides;"
                            + " worth it across slow links, not on a LAN (see docs/benchmarks.md).");
    public static final ConfigKey<Duration> FETCH_POLL_TIMEOUT =
            ConfigKey.of(
                            "fetch.pollTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "How long the relay holds a request open while there is nothing new (long poll).")
                    .validatedBy(
                            v -> !v.isNegative() && v.compareTo(Duration.ofMinutes(5)) <= 0,
                            "0ms..5m");
    public static final ConfigKey<Duration> FETCH_REQUEST_TIMEOUT =
            ConfigKey.of(
                            "fetch.requestTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "How long a relay may take to connect and answer beyond the long-poll wait before"
                                    + " the consumer fails over.")
                    .validatedBy(ConsumerSettings::isPositive, "positive");
    public static final ConfigKey<Duration> FETCH_STALL_TIMEOUT =
            ConfigKey.of(
                            "fetch.stallTimeout",
                            ValueKind.DURATION,
                            Duration.ofSeconds(30),
                            "How long a relay's source time (X-Changegrid-Source-Time, moved by every"
                                    + " transaction and source heartbeat it receives) may stay unchanged before"
                                    + " the consumer moves to the next relay, when there is one (0ms: never)."
                                    + " Keep it well above the relays' source.heartbeatInterval.")
                    .validatedBy(v -> !v.isNegative(), "not negative");
    public static final ConfigKey<Duration> FETCH_BACKOFF =
            ConfigKey.of(
                            "fetch.backoff",
                            ValueKind.DURATION,
                            Duration.ofMillis(100),
                            "Wait after every relay in the list failed once, doubled after each further round.")
                    .validatedBy(ConsumerSettings::isPositive, "positive");
    public static final ConfigKey<Duration> FETCH_BACKOFF_MAX =
            ConfigKey.of(
                            "fetch.backoffMax",
                            ValueKind.DURATION,
                            Duration.ofSeconds(5),
                            "Longest wait between rounds of relay attempts.")
                    .validatedBy(ConsumerSettings::isPositive, "positive");

    public static final ConfigKey<Integer> BATCH_MAX_TRANSACTIONS =
            ConfigKey.of(
                            "batch.maxTransactions",
                            ValueKind.INT,
                            100,
                            "Most transactions delivered between onStartBatch and onEndBatch and checkpointed"
                                    + " together.")
                    .validatedBy(v -> v >= 1, "at least 1");
    public static final ConfigKey<Duration> BATCH_MAX_WAIT =
            ConfigKey.of(
                            "batch.maxWait",
                            ValueKind.DURATION,
                            Duration.ZERO,
                            "How long an open batch waits for more transactions to arrive (0ms: a batch holds"
                                    + " what is already buffered).")
                    .validatedBy(v -> !v.isNegative(), "not negative");

    public static final ConfigKey<Duration> CALLBACK_RETRY_BACKOFF =
            ConfigKey.of(
                            "callback.retryBackoff",
                            ValueKind.DURATION,
                            Duration.ofMillis(100),
                            "Wait before delivering again after the callback returned RETRY, doubled after"
                                    + " each further RETRY.")
                    .validatedBy(ConsumerSettings::isPositive, "positive");
    public static final ConfigKey<Duration> CALLBACK_RETRY_BACKOFF_MAX =
            ConfigKey.of(
                            "callback.retryBackoffMax",
                            ValueKind.DURATION,
                            Duration.ofSeconds(10),
                            "Longest wait between deliveries after RETRY.")
                    .validatedBy(ConsumerSettings::isPositive, "positive");
    public static final ConfigKey<Integer> CALLBACK_RETRY_LIMIT =
            ConfigKey.of(
                            "callback.retryLimit",
                            ValueKind.INT,
                            0,
                            "RETRYs in a row after which the consumer stops as on FAIL (0: no limit).")
                    .validatedBy(v -> v >= 0, "at least 0");

    public static final ConfigKey<String> CALLBACK_TYPE =
            ConfigKey.of(
                            "callback.type",
                            ValueKind.STRING,
                            "jsonl",
                            "The callback ConsumerMain runs: jsonl (each event's JSON form, one per line, to"
                                    + " callback.jsonl.file), count (counts events and bytes, for benchmarks) or the"
                                    + " class name of a ConsumerCallback with a no-argument constructor.")
                    .validatedBy(v -> !v.isBlank(), "not empty");
    public static final ConfigKey<Path> CALLBACK_JSONL_FILE =
            ConfigKey.of(
                    "callback.jsonl.file",
                    ValueKind.PATH,
                    Path.of("events.jsonl"),
                    "The file the jsonl callback appends to; synced before every checkpoint. A group"
                            + " member writes one file per partition: {partition} in the name is replaced by"
                            + " the partition's number, or .p<number> goes before the extension.");
    public static final ConfigKey<Path> CHECKPOINT_FILE =
            ConfigKey.of(
                    "checkpoint.file",
                    ValueKind.PATH,
                    Path.of("consumer-checkpoint"),
                    "Where ConsumerMain keeps its checkpoint (replaced atomically after every batch).");

    public static final ConfigSchema SCHEMA = schema();

    private static ConfigSchema schema() {
        List<ConfigKey<?>> keys =
                new java.util.ArrayList<>(
                        List.of(
                                RELAYS,
                                SUBSCRIPTION_TABLES,
                                SUBSCRIPTION_PARTITION,
                                SUBSCRIPTION_PARTITIONS,
                                START,
                                BOOTSTRAP_ON_TOO_OLD,
                                BUFFER_CAPACITY,
                                FETCH_MAX_BYTES,
                                FETCH_GZIP,
                                FETCH_POLL_TIMEOUT,
                                FETCH_REQUEST_TIMEOUT,
                                FETCH_STALL_TIMEOUT,
                                FETCH_BACKOFF,
                                FETCH_BACKOFF_MAX,
                                BATCH_MAX_TRANSACTIONS,
                                BATCH_MAX_WAIT,
                                CALLBACK_RETRY_BACKOFF,
                                CALLBACK_RETRY_BACKOFF_MAX,
                                CALLBACK_RETRY_LIMIT,
                                CALLBACK_TYPE,
                                CALLBACK_JSONL_FILE,
                                CHECKPOINT_FILE));
        // relay.tls.* and relay.token: how the consumer reaches relays, the shape shared with
        // every relay client (protocol's RelayCredentials).
        keys.addAll(RelayCredentials.KEYS);
        return new ConfigSchema(keys);
    }

    private ConsumerSettings() {}

    private static boolean isPositive(Duration value) {
        return !value.isNegative() && !value.isZero();
    }

    private static boolean areRelayUrls(List<String> urls) {
        if (urls.isEmpty()) {
            return false;
        }
        for (String url : urls) {
            try {
                URI uri = new URI(url.trim());
                String path = uri.getPath();
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                        || uri.getHost() == null
                        || uri.getQuery() != null
                        || (path != null && !path.isEmpty() && !path.equals("/"))) {
                    return false;
                }
            } catch (URISyntaxException e) {
                return false;
            }
        }
        return true;
    }

    private static boolean areTablePatterns(List<String> patterns) {
        for (String pattern : patterns) {
            int dot = pattern.indexOf('.');
            if (pattern.isBlank()
                    || pattern.contains(",")
                    || dot <= 0
                    || dot == pattern.length() - 1) {
                return false;
            }
        }
        return true;
    }
}
