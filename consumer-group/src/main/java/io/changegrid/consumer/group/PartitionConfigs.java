package io.changegrid.consumer.group;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigSchema;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.consumer.config.Subscription;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.consumer.group.config.GroupSettings;
import io.changegrid.policy.Policy;
import io.changegrid.policy.config.PolicyConfig;
import io.changegrid.policy.partition.Partitioner;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.WantedTables;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A group member's settings, validated once, and the consumer settings of each partition it takes
 * on: the same settings with {@code subscription.partition} set to the partition and, when relays
 * are discovered, {@code relays} set to the relays found. Going through the settings rather than
 * copying the record keeps every rule of {@link ConsumerConfig#from} in force per partition.
 *
 * <p>Immutable.
 */
public final class PartitionConfigs {

    private final ConfigSchema schema;
    private final Map<String, Object> tree;
    private final Map<String, String> overrides;
    private final List<?> policies;
    private static final String EVERY_TABLE = "*.*";

    private final Config config;
    private final GroupConfig group;
    private final ConsumerConfig template;

    private PartitionConfigs(
            ConfigSchema schema,
            Map<String, Object> tree,
            Map<String, String> overrides,
            List<?> policies,
            Config config,
            GroupConfig group,
            ConsumerConfig template) {
        this.schema = schema;
        this.tree = tree;
        this.overrides = overrides;
        this.policies = policies;
        this.config = config;
        this.group = group;
        this.template = template;
    }

    /**
     * Validates a member's settings as {@code ConsumerMain} reads them.
     *
     * @param tree the YAML document without its {@code policies:} list
     * @param overrides {@code --set key=value} settings, which win
     * @param policies the subscription's {@code policies:} list; empty for none
     * @throws ConfigException listing every problem, each naming its key
     * @throws IllegalArgumentException if the settings make no group member
     */
    public static PartitionConfigs of(
            Map<String, Object> tree, Map<String, String> overrides, List<?> policies) {
        return of(GroupSettings.SCHEMA, tree, overrides, policies);
    }

    /**
     * Validates a member's settings against a schema that holds every consumer key and more: a
     * member whose callback has settings of its own (the JDBC applier's {@code target.*}).
     *
     * @param schema the consumer's keys ({@link GroupSettings#SCHEMA}) and the callback's
     * @throws ConfigException listing every problem, each naming its key
     */
    public static PartitionConfigs of(
            ConfigSchema schema,
            Map<String, Object> tree,
            Map<String, String> overrides,
            List<?> policies) {
        Config config = schema.load(tree, overrides);
        List<String> problems = new ArrayList<>();
        GroupConfig group = null;
        ConsumerConfig template = null;
        try {
            group = GroupConfig.from(config);
        } catch (ConfigException e) {
            problems.addAll(e.problems());
        }
        try {
            template = ConsumerConfig.from(config, policies, GroupConfig.isMember(config));
        } catch (ConfigException e) {
            problems.addAll(e.problems());
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new PartitionConfigs(
                schema,
                Collections.unmodifiableMap(new LinkedHashMap<>(tree)),
                Map.copyOf(overrides),
                policies,
                config,
                group,
                template);
    }

    /**
     * Validates settings given as {@code key path → value}, as {@code Consumer.builder()} takes
     * them.
     */
    public static PartitionConfigs of(Map<String, Object> settings, List<?> policies) {
        return of(settings, Map.of(), policies);
    }

    /** All settings, validated. */
    public Config config() {
        return config;
    }

    /** The group settings. */
    public GroupConfig group() {
        return group;
    }

    /** The relays configured; empty when the member discovers them. */
    public List<URI> configuredRelays() {
        return template.relays();
    }

    /** The consumer buffer's size, which each owned partition has. */
    public int bufferCapacity() {
        return template.bufferCapacity();
    }

    /**
     * What the subscription asks a relay for, as relays are judged against it ({@link
     * RelayRegistration#isReplicaFor}): {@code database.table} patterns — the tables it names; for
     * a policy subscription its policies' tables (what a policy selects lies within its {@code
     * include}); {@code *.*} for every table — each with the partitioner that defines the group's
     * partitions for them. That is key hash mod {@code subscription.partitions} for tables (as the
     * relay applies {@code Subscription.partition(p, n)}), the policy's own partitioner for a
     * policy subscription, and none for a group of one partition.
     */
    public List<WantedTables> wantedTables() {
        Subscription subscription = template.subscription();
        boolean split = subscription.partitions() > 1;
        if (subscription.policies().isEmpty()) {
            String byKeyHash =
                    split
                            ? new Partitioner.ByKeyHash(subscription.partitions()).canonicalForm()
                            : null;
            List<String> tables =
                    subscription.tables().isEmpty() ? List.of(EVERY_TABLE) : subscription.tables();
            return tables.stream().map(table -> new WantedTables(table, byKeyHash)).toList();
        }
        List<WantedTables> wanted = new ArrayList<>();
        for (Policy policy : PolicyConfig.parse(subscription.policies()).policies()) {
            // ConsumerConfig.from checked that a split subscription's policies all have one.
            String partitioner = split ? policy.partitioner().canonicalForm() : null;
            policy.include()
                    .forEach(pattern -> wanted.add(new WantedTables(pattern.text(), partitioner)));
        }
        return wanted;
    }

    /**
     * The settings of one partition's consumer.
     *
     * @param relays the relays to pull from, in failover order; empty to keep the configured ones
     */
    public ConsumerConfig forPartition(int partition, List<String> relays) {
        Map<String, String> partitionOverrides = new HashMap<>(overrides);
        partitionOverrides.put(
                ConsumerSettings.SUBSCRIPTION_PARTITION.path(), Integer.toString(partition));
        if (!relays.isEmpty()) {
            partitionOverrides.put(ConsumerSettings.RELAYS.path(), String.join(",", relays));
        }
        Config partitionConfig = schema.load(tree, partitionOverrides);
        return ConsumerConfig.from(
                partitionConfig, policies, GroupConfig.isMember(partitionConfig));
    }
}
