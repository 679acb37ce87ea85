package io.changegrid.relay.config;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.policy.Policies;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.config.PolicyConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A relay's whole configuration: its settings ({@link RelaySettings}) and its {@code policies:}
 * list, read from one YAML document with every problem of both reported together.
 *
 * @param settings the settings
 * @param plan what the fetcher publishes: everything without policies
 */
public record RelayConfiguration(Config settings, CapturePlan plan) {

    /** The YAML key of the policies list (docs/policies.md). */
    public static final String POLICIES = "policies";

    /** Settings without policies: every captured table, unchanged. */
    public static RelayConfiguration of(Config settings) {
        return of(settings, null);
    }

    /**
     * Settings and policies.
     *
     * @param policies the parsed policies, or {@code null} for none
     * @throws ConfigException if {@code capture.partition} does not fit the policies
     */
    public static RelayConfiguration of(Config settings, Policies policies) {
        int partition = settings.get(RelaySettings.CAPTURE_PARTITION);
        if (policies == null) {
            if (partition != CapturePlan.ALL_PARTITIONS) {
                throw new ConfigException(
                        List.of(
                                "bad value: path="
                                        + RelaySettings.CAPTURE_PARTITION.path()
                                        + ", value="
                                        + partition
                                        + ": needs policies with partitioners (policies: is empty)"));
            }
            return new RelayConfiguration(settings, CapturePlan.everything());
        }
        return new RelayConfiguration(
                settings,
                CapturePlan.of(policies, partition, RelaySettings.CAPTURE_PARTITION.path()));
    }

    /**
     * Reads a YAML tree and command-line overrides.
     *
     * @throws ConfigException listing every problem of the settings and the policies
     */
    public static RelayConfiguration load(Map<String, Object> tree, Map<String, String> overrides) {
        Map<String, Object> settingsTree = new LinkedHashMap<>(tree);
        Object policiesTree = settingsTree.remove(POLICIES);
        List<String> problems = new ArrayList<>();
        Config settings = null;
        try {
            settings = RelaySettings.load(settingsTree, overrides);
        } catch (ConfigException e) {
            problems.addAll(e.problems());
        }
        Policies policies = null;
        if (policiesTree != null) {
            try {
                policies = PolicyConfig.parse(policiesTree);
            } catch (ConfigException e) {
                problems.addAll(e.problems());
            }
        }
        if (problems.isEmpty()) {
            try {
                return of(settings, policies);
            } catch (ConfigException e) {
                problems.addAll(e.problems());
            }
        }
        throw new ConfigException(problems);
    }
}
