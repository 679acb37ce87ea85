package io.changegrid.consumer.group;

import io.changegrid.config.ConfigException;
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
        PartitionConfigs configs;
        PartitionCallbacks callbacks;
        try {
            configs = PartitionConfigs.of(tree, overrides, policies);
            callbacks = PartitionCallbacks.from(configs.config());
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
        member.awaitClose();
        return 0;
    }
}
