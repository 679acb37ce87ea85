package io.changegrid.consumer.group.cluster;

import java.time.Duration;
import java.util.List;
import org.apache.helix.ConfigAccessor;
import org.apache.helix.HelixAdmin;
import org.apache.helix.HelixException;
import org.apache.helix.manager.zk.ZKHelixAdmin;
import org.apache.helix.model.BuiltInStateModelDefinitions;
import org.apache.helix.model.ClusterConfig;
import org.apache.helix.model.IdealState;
import org.apache.helix.zookeeper.zkclient.exception.ZkException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a group's Helix cluster, state model and resource if they are missing, and checks an
 * existing resource against the member's settings. Every member runs it before joining, so it is
 * idempotent, and retried when members starting together trip over each other's half-made nodes.
 */
final class GroupClusterSetup {

    private static final Logger LOG = LoggerFactory.getLogger(GroupClusterSetup.class);
    private static final int ATTEMPTS = 5;

    /**
     * How long a member may be gone before Helix forgets it: members named host-pid never come
     * back, and a member that does simply joins again.
     */
    static final Duration DEREGISTRATION_TIMEOUT = Duration.ofHours(1);

    private GroupClusterSetup() {}

    /**
     * @throws IllegalStateException if the group exists with another number of partitions
     */
    static void ensure(String zooKeeper, String cluster, int partitions)
            throws InterruptedException {
        HelixAdmin admin = new ZKHelixAdmin.Builder().setZkAddress(zooKeeper).build();
        ConfigAccessor configs = new ConfigAccessor.Builder().setZkAddress(zooKeeper).build();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    setUp(admin, configs, zooKeeper, cluster, partitions);
                    return;
                } catch (HelixException | ZkException e) {
                    if (attempt == ATTEMPTS) {
                        throw new IllegalStateException(
                                "consumer group not set up in ZooKeeper: cluster="
                                        + cluster
                                        + ", attempts="
                                        + ATTEMPTS
                                        + ", error="
                                        + e.getMessage(),
                                e);
                    }
                    LOG.info(
                            "consumer group setup raced with another member, again: cluster={}, error={}",
                            cluster,
                            e.getMessage());
                    Thread.sleep(100L * attempt);
                }
            }
        } finally {
            configs.close();
            admin.close();
        }
    }

    private static void setUp(
            HelixAdmin admin,
            ConfigAccessor configs,
            String zooKeeper,
            String cluster,
            int partitions) {
        if (!admin.getClusters().contains(cluster)) {
            admin.addCluster(cluster, false);
            LOG.info("consumer group created: cluster={}, zooKeeper={}", cluster, zooKeeper);
        }
        if (admin.getStateModelDef(cluster, GroupLayout.STATE_MODEL) == null) {
            admin.addStateModelDef(
                    cluster,
                    GroupLayout.STATE_MODEL,
                    BuiltInStateModelDefinitions.LeaderStandby.getStateModelDefinition());
        }
        ClusterConfig clusterConfig = configs.getClusterConfig(cluster);
        if (!clusterConfig.getRecord().getBooleanField(AUTO_JOIN, false)
                || clusterConfig.getParticipantDeregistrationTimeout()
                        != DEREGISTRATION_TIMEOUT.toMillis()) {
            // Members add themselves on connect; no operator registers instances beforehand.
            clusterConfig.getRecord().setBooleanField(AUTO_JOIN, true);
            clusterConfig.setParticipantDeregistrationTimeout(DEREGISTRATION_TIMEOUT.toMillis());
            configs.setClusterConfig(cluster, clusterConfig);
        }
        List<String> resources = admin.getResourcesInCluster(cluster);
        if (!resources.contains(GroupLayout.RESOURCE)) {
            // CUSTOMIZED: the placement is ours (PlacementKeeper); Helix carries it out.
            admin.addResource(
                    cluster,
                    GroupLayout.RESOURCE,
                    partitions,
                    GroupLayout.STATE_MODEL,
                    IdealState.RebalanceMode.CUSTOMIZED.name());
            LOG.info(
                    "consumer group resource created: cluster={}, resource={}, partitions={}",
                    cluster,
                    GroupLayout.RESOURCE,
                    partitions);
        } else {
            IdealState ideal = admin.getResourceIdealState(cluster, GroupLayout.RESOURCE);
            if (!GroupLayout.STATE_MODEL.equals(ideal.getStateModelDefRef())
                    || ideal.getRebalanceMode() != IdealState.RebalanceMode.CUSTOMIZED) {
                throw new IllegalStateException(
                        "consumer group was set up otherwise: cluster="
                                + cluster
                                + ", stateModel="
                                + ideal.getStateModelDefRef()
                                + ", rebalanceMode="
                                + ideal.getRebalanceMode()
                                + ", expected="
                                + GroupLayout.STATE_MODEL
                                + "/CUSTOMIZED");
            }
            if (ideal.getNumPartitions() != partitions) {
                throw new IllegalStateException(
                        "consumer group has another number of partitions: cluster="
                                + cluster
                                + ", subscription.partitions="
                                + partitions
                                + ", groupPartitions="
                                + ideal.getNumPartitions());
            }
        }
    }

    private static final String AUTO_JOIN = "allowParticipantAutoJoin";
}
