package io.changegrid.consumer.config;

import static io.changegrid.consumer.config.ConsumerSettings.*;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigKey;
import io.changegrid.protocol.tls.RelayCredentials;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The validated settings the consumer library runs with. Immutable.
 *
 * @param relays base URLs of the relays of one source, in failover order
 * @param subscription the tables and partition received
 * @param bufferCapacity the consumer buffer's size in bytes
 * @param fetchMaxBytes the soft size limit of one relay response
 * @param fetchGzip whether relays are asked for gzip-compressed responses
 * @param pollTimeout how long the relay holds a request while there is nothing new
 * @param requestTimeout how long a relay may take beyond the long-poll wait
 * @param fetchBackoff waits between rounds of failed relay attempts
 * @param batchMaxTransactions most transactions per batch
 * @param batchMaxWait how long an open batch waits for more transactions
 * @param retryBackoff waits before delivering again after RETRY
 * @param retryLimit RETRYs in a row after which the consumer stops; 0 for no limit
 * @param credentials TLS files and bearer token the consumer reaches relays with
 * @param stallTimeout how long a relay's source time may stay unchanged before the consumer moves
 *     to the next relay; zero for never
 * @param start where a consumer without a checkpoint starts
 * @param onTooOld what to do when every relay answers 410
 */
public record ConsumerConfig(
        List<URI> relays,
        Subscription subscription,
        int bufferCapacity,
        int fetchMaxBytes,
        boolean fetchGzip,
        Duration pollTimeout,
        Duration requestTimeout,
        Backoff fetchBackoff,
        int batchMaxTransactions,
        Duration batchMaxWait,
        Backoff retryBackoff,
        int retryLimit,
        RelayCredentials credentials,
        Duration stallTimeout,
        StartPosition start,
        TooOldAction onTooOld) {

    public ConsumerConfig {
        start = start == null ? StartPosition.OLDEST : start;
        onTooOld = onTooOld == null ? TooOldAction.FAIL : onTooOld;
        relays = List.copyOf(relays);
        credentials = credentials == null ? RelayCredentials.NONE : credentials;
        stallTimeout = stallTimeout == null ? Duration.ZERO : stallTimeout;
    }

    /**
     * The library settings of a loaded configuration, checking also the rules that span keys.
     *
     * @throws ConfigException listing every problem, each naming its keys
     */
    public static ConsumerConfig from(Config config) {
        return from(config, List.of());
    }

    /**
     * The library settings of a loaded configuration and its {@code policies:} list (empty for
     * none), checking also the rules that span keys and the policies (see {@link
     * SubscriptionPolicies}).
     *
     * @throws ConfigException listing every problem, each naming its keys or path
     */
    public static ConsumerConfig from(Config config, List<?> policies) {
        return from(config, policies, false);
    }

    /**
     * As {@link #from(Config, List)}, for a consumer whose relays may be found elsewhere: with
     * {@code relaysDiscovered} an empty {@code relays} is no problem (a consumer group member finds
     * them in ZooKeeper and sets them per partition).
     *
     * @throws ConfigException listing every problem, each naming its keys or path
     */
    public static ConsumerConfig from(Config config, List<?> policies, boolean relaysDiscovered) {
        List<String> problems = new ArrayList<>();
        int partition = config.get(SUBSCRIPTION_PARTITION);
        int partitions = config.get(SUBSCRIPTION_PARTITIONS);
        if (partition >= partitions) {
            problems.add(
                    "bad value: path=subscription.partition, value="
                            + partition
                            + ": must be below subscription.partitions="
                            + partitions);
        }
        problems.addAll(
                SubscriptionPolicies.check(policies, config.get(SUBSCRIPTION_TABLES), partitions));
        long capacity = config.get(BUFFER_CAPACITY);
        long maxBytes = config.get(FETCH_MAX_BYTES);
        if (maxBytes > capacity) {
            problems.add(
                    "bad value: path=fetch.maxBytes, value="
                            + maxBytes
                            + ": must not exceed buffer.capacity="
                            + capacity);
        }
        checkBackoff(config, FETCH_BACKOFF, FETCH_BACKOFF_MAX, problems);
        checkBackoff(config, CALLBACK_RETRY_BACKOFF, CALLBACK_RETRY_BACKOFF_MAX, problems);
        if (config.get(RELAYS).isEmpty() && !relaysDiscovered) {
            problems.add("missing required key: path=relays (" + RELAYS.doc() + ")");
        }
        RelayCredentials credentials = null;
        try {
            credentials = RelayCredentials.read(config);
        } catch (ConfigException e) {
            problems.addAll(e.problems());
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        List<URI> relays = new ArrayList<>();
        for (String url : config.get(RELAYS)) {
            String trimmed = url.trim();
            relays.add(URI.create(trimmed.endsWith("/") ? trimmed : trimmed + "/"));
        }
        return new ConsumerConfig(
                relays,
                new Subscription(config.get(SUBSCRIPTION_TABLES), partition, partitions, policies),
                (int) capacity,
                (int) maxBytes,
                config.get(FETCH_GZIP),
                config.get(FETCH_POLL_TIMEOUT),
                config.get(FETCH_REQUEST_TIMEOUT),
                new Backoff(config.get(FETCH_BACKOFF), config.get(FETCH_BACKOFF_MAX)),
                config.get(BATCH_MAX_TRANSACTIONS),
                config.get(BATCH_MAX_WAIT),
                new Backoff(
                        config.get(CALLBACK_RETRY_BACKOFF), config.get(CALLBACK_RETRY_BACKOFF_MAX)),
                config.get(CALLBACK_RETRY_LIMIT),
                credentials,
                config.get(FETCH_STALL_TIMEOUT),
                config.get(START),
                config.get(BOOTSTRAP_ON_TOO_OLD));
    }

    /** Whether this consumer may snapshot, and so needs a store that keeps a snapshot cursor. */
    public boolean snapshots() {
        return start == StartPosition.SNAPSHOT || onTooOld == TooOldAction.SNAPSHOT;
    }

    /**
     * Validates settings given as {@code key path → value} (YAML scalars, lists or their text) with
     * the same rules and defaults as a configuration file.
     *
     * @throws ConfigException listing every problem, each naming its key
     */
    public static ConsumerConfig of(Map<String, Object> settings) {
        return of(settings, List.of());
    }

    /**
     * As {@link #of(Map)}, with a subscription's {@code policies:} list.
     *
     * @throws ConfigException listing every problem, each naming its key or path
     */
    public static ConsumerConfig of(Map<String, Object> settings, List<?> policies) {
        return from(SCHEMA.load(settings, Map.of()), policies);
    }

    private static void checkBackoff(
            Config config,
            ConfigKey<Duration> initial,
            ConfigKey<Duration> max,
            List<String> problems) {
        if (config.get(max).compareTo(config.get(initial)) < 0) {
            problems.add(
                    "bad value: path="
                            + max.path()
                            + ", value="
                            + max.kind().format(config.get(max))
                            + ": must be at least "
                            + initial.path()
                            + "="
                            + initial.kind().format(config.get(initial)));
        }
    }
}
