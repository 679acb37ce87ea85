package io.changegrid.consumer.group.cluster;

import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.protocol.zookeeper.ZooKeeperChroot;
import java.util.function.Supplier;
import org.apache.helix.HelixManager;
import org.apache.helix.HelixManagerFactory;
import org.apache.helix.InstanceType;
import org.apache.helix.SystemPropertyKeys;
import org.apache.helix.zookeeper.datamodel.ZNRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of a consumer group in Helix: a participant that owns the partitions Helix assigns it
 * (reported to a {@link PartitionListener}), and an embedded controller.
 *
 * <p><b>Controller.</b> Every member also runs a Helix controller; the controllers elect a leader
 * through ZooKeeper, the leading member places the partitions ({@link PlacementKeeper}) and its
 * controller carries the placement out. So a group needs no other process, and losing any member,
 * the leader included, costs one session timeout: the leader's controller session expires together
 * with its participant session, and another member's controller takes over and places anew.
 *
 * <p><b>Ownership between session events.</b> The participant keeps a {@link SessionLease}: each
 * assignment comes with an {@link Ownership} that stops being held as soon as the member cannot be
 * sure its session (and so the partition) is still its own, before Helix gets to revoke anything.
 *
 * <p><b>Session timeout.</b> Helix reads it from a system property when a manager is made; this
 * sets the property around that moment only, under a lock, so members of several groups in one JVM
 * each get their own.
 *
 * <p>Threading: {@link #close} from any thread, once.
 */
public final class ClusterMember implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterMember.class);
    private static final Object SESSION_TIMEOUT_PROPERTY = new Object();

    private final GroupConfig config;
    private final String cluster;
    private final LeasedParticipant participant;
    private final HelixManager controller;
    private final PlacementKeeper placement;

    private ClusterMember(
            GroupConfig config,
            String cluster,
            LeasedParticipant participant,
            HelixManager controller) {
        this.config = config;
        this.cluster = cluster;
        this.participant = participant;
        this.controller = controller;
        this.placement =
                new PlacementKeeper(
                        participant, controller, cluster, config.partitions(), config.quorum());
    }

    /**
     * Sets the group up if it is new, then joins it: from here on, {@code listener} hears of the
     * partitions this member owns.
     *
     * @param statusUrl this member's status endpoint, published with its live instance; null if
     *     none
     * @param epochs claims the ownership epoch of a partition before the listener is told
     * @throws IllegalStateException if the group exists with another number of partitions
     * @throws Exception if Helix cannot connect
     */
    public static ClusterMember join(
            GroupConfig config,
            String statusUrl,
            PartitionEpochs epochs,
            PartitionListener listener)
            throws Exception {
        String cluster = GroupLayout.clusterName(config.group());
        if (ZooKeeperChroot.create(
                config.zooKeeper(),
                config.sessionTimeout(),
                config.credentials(),
                config.zooKeeperTls())) {
            LOG.info("ZooKeeper chroot present: {}", ZooKeeperChroot.of(config.zooKeeper()));
        }
        GroupClusterSetup.ensure(config.zooKeeper(), cluster, config.partitions());
        AbandonedPlacement.withdraw(config.zooKeeper(), cluster, config.partitions());
        LeasedParticipant participant =
                withSessionTimeout(
                        config,
                        () ->
                                new LeasedParticipant(
                                        cluster,
                                        config.instance(),
                                        config.zooKeeper(),
                                        config.sessionTimeout()));
        participant
                .getStateMachineEngine()
                .registerStateModelFactory(
                        GroupLayout.STATE_MODEL,
                        new PartitionStateModelFactory(epochs, participant.lease(), listener));
        if (statusUrl != null) {
            participant.setLiveInstanceInfoProvider(
                    () -> {
                        ZNRecord info = new ZNRecord(config.instance());
                        info.setSimpleField(GroupLayout.STATUS_URL, statusUrl);
                        return info;
                    });
        }
        HelixManager controller =
                withSessionTimeout(
                        config,
                        () ->
                                HelixManagerFactory.getZKHelixManager(
                                        cluster,
                                        config.instance() + "-controller",
                                        InstanceType.CONTROLLER,
                                        config.zooKeeper()));
        ClusterMember member = new ClusterMember(config, cluster, participant, controller);
        try {
            participant.connect();
            participant.lease().start();
            controller.connect();
            participant.addLiveInstanceChangeListener(member.placement);
            member.placement.start();
        } catch (Exception | Error e) {
            member.abandon();
            throw e;
        }
        LOG.info(
                "joined consumer group: group={}, instance={}, cluster={}, partitions={}, quorum={},"
                        + " sessionTimeout={}",
                config.group(),
                config.instance(),
                cluster,
                config.partitions(),
                config.quorum(),
                config.sessionTimeout());
        return member;
    }

    /** Whether the participant's ZooKeeper session is connected now. */
    public boolean isConnected() {
        return participant.isConnected();
    }

    /**
     * Whether this member's controller leads the group, as the placement keeper last saw it.
     * Helix's own {@code isLeader()} reads ZooKeeper and, during an outage, waits for it to come
     * back: a status page asking it would hang exactly when an operator needs it.
     */
    public boolean isLeader() {
        return controller.isConnected() && placement.leads();
    }

    /** The Helix cluster of the group. */
    public String cluster() {
        return cluster;
    }

    /**
     * Leaves the group: the participant first, so that the partitions move at once (Helix resets
     * the partitions still owned, revoking them), then the controller. Each is disconnected even
     * when ZooKeeper is unreachable: its client would otherwise go on reconnecting for the life of
     * the process, and take a session on whatever server answers at that address later. During an
     * outage each disconnect first waits Helix's {@code helixmanager.waitForConnectedTimeout} (10
     * s) for the connection to return, so leaving then takes about 20 s.
     */
    @Override
    public void close() {
        placement.close();
        participant.lease().close();
        try {
            participant.disconnect();
        } finally {
            controller.disconnect();
        }
        LOG.info("left consumer group: group={}, instance={}", config.group(), config.instance());
    }

    /** Takes a member down after a failed join; a half-made connection is closed as well. */
    private void abandon() {
        placement.close();
        participant.lease().close();
        for (HelixManager manager : new HelixManager[] {participant, controller}) {
            try {
                manager.disconnect();
            } catch (RuntimeException e) {
                LOG.debug("manager not disconnected after a failed join: {}", e.toString());
            }
        }
    }

    private static <T extends HelixManager> T withSessionTimeout(
            GroupConfig config, Supplier<T> manager) {
        synchronized (SESSION_TIMEOUT_PROPERTY) {
            String key = SystemPropertyKeys.ZK_SESSION_TIMEOUT;
            String previous = System.getProperty(key);
            System.setProperty(key, Long.toString(config.sessionTimeout().toMillis()));
            try {
                return manager.get();
            } finally {
                if (previous == null) {
                    System.clearProperty(key);
                } else {
                    System.setProperty(key, previous);
                }
            }
        }
    }
}
