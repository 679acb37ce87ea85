package io.changegrid.consumer.group;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.config.ConfigSchema;
import io.changegrid.consumer.group.config.GroupSettings;
import io.changegrid.service.RequestedStop;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code ConsumerMain} as a consumer group member (when {@code cluster.zookeeper} is set): joins
 * the group, runs the partitions it is assigned, and leaves on SIGTERM/SIGINT, each partition
 * checkpointed.
 */
public final class GroupMemberProcess {

    private static final Logger LOG = LoggerFactory.getLogger(GroupMemberProcess.class);

    private GroupMemberProcess() {}

    /**
     * Runs until the JVM is asked to stop.
     *
     * @return the exit status: 0 after a stop on request, 1 if the member could not join, 2 for an
     *     invalid configuration
     */
    public static int run(
            Map<String, Object> tree,
            Map<String, String> overrides,
            List<?> policies,
            PrintWriter err)
            throws Exception {
        return run(GroupSettings.SCHEMA, PartitionCallbacks::from, tree, overrides, policies, err);
    }

    /** Makes the partition callback factory of a member's validated settings. */
    @FunctionalInterface
    public interface CallbackSetup {
        /**
         * @throws ConfigException naming the keys of settings that make no callback
         * @throws IOException if the callback's resources cannot be checked
         */
        PartitionCallbackFactory from(Config config) throws IOException;
    }

    /**
     * Runs a member whose callback is not one of {@code callback.type}'s (the JDBC applier's {@code
     * ApplierMain}), until the JVM is asked to stop.
     *
     * @param schema every consumer key and the callback's own
     * @param setup makes the partition callbacks from the validated settings
     * @return the exit status, as {@link #run(Map, Map, List, PrintWriter)}
     */
    public static int run(
            ConfigSchema schema,
            CallbackSetup setup,
            Map<String, Object> tree,
            Map<String, String> overrides,
            List<?> policies,
            PrintWriter err)
            throws Exception {
        PartitionConfigs configs;
        PartitionCallbackFactory callbacks;
        try {
            configs = PartitionConfigs.of(schema, tree, overrides, policies);
            callbacks = setup.from(configs.config());
        } catch (ConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return 2;
        }
        LOG.info("consumer group member starting: config={}", configs.config().describe());
        GroupConsumer member;
        try {
            member = GroupConsumer.start(configs, callbacks);
        } catch (Exception e) {
            LOG.error("consumer group member could not join: {}", e.toString(), e);
            return 1;
        }
        Thread shutdown = new Thread(member::close, "consumer-group-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        RequestedStop.install("consumer group member", member::close);
        member.awaitClose();
        return 0;
    }
}
