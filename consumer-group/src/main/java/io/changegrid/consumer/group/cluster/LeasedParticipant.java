package io.changegrid.consumer.group.cluster;

import java.time.Duration;
import org.apache.helix.AccessOption;
import org.apache.helix.HelixDataAccessor;
import org.apache.helix.InstanceType;
import org.apache.helix.manager.zk.ZKHelixManager;
import org.apache.helix.zookeeper.api.client.RealmAwareZkClient;
import org.apache.helix.zookeeper.exception.ZkClientException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.data.Stat;

/**
 * A member's Helix participant with a {@link SessionLease}: it tells the lease of every change of
 * its ZooKeeper session before Helix reacts to it (on expiry Helix resets the member's partitions,
 * which stops their consumers; by then the lease has stopped their deliveries already), and answers
 * the lease's question whether the session is still alive.
 *
 * <p>Threading: Helix calls the handlers on its ZooKeeper event thread.
 */
final class LeasedParticipant extends ZKHelixManager {

    private final SessionLease lease;

    LeasedParticipant(String cluster, String instance, String zooKeeper, Duration sessionTimeout) {
        super(cluster, instance, InstanceType.PARTICIPANT, zooKeeper);
        this.lease =
                new SessionLease(
                        instance,
                        sessionTimeout,
                        this::sessionAlive,
                        new SessionLease.Connection() {
                            @Override
                            public long sessionId() {
                                return currentSessionId();
                            }

                            @Override
                            public boolean isConnected() {
                                return LeasedParticipant.this.isConnected();
                            }
                        });
    }

    /** The lease of this participant's session. */
    SessionLease lease() {
        return lease;
    }

    @Override
    public void handleStateChanged(KeeperState state) {
        lease.stateChanged(state);
        super.handleStateChanged(state);
    }

    @Override
    public void handleNewSession(String sessionId) throws Exception {
        lease.newSession();
        super.handleNewSession(sessionId);
    }

    /**
     * The session of the participant's ZooKeeper handle, read from the handle itself: Helix's own
     * record of it changes only once its event thread gets to the new session.
     */
    private long currentSessionId() {
        RealmAwareZkClient client = _zkclient;
        if (client == null) {
            return 0;
        }
        try {
            return client.getSessionId();
        } catch (ZkClientException e) {
            return 0; // no handle between an expiry and the next connection
        }
    }

    /**
     * Whether the member's live-instance node, ephemeral, is owned by its current session: read
     * through the participant's own connection, which that read also keeps alive.
     */
    private boolean sessionAlive() {
        HelixDataAccessor data = getHelixDataAccessor();
        Stat stat =
                data.getBaseDataAccessor()
                        .getStat(
                                data.keyBuilder().liveInstance(getInstanceName()).getPath(),
                                AccessOption.PERSISTENT);
        return stat != null
                && stat.getEphemeralOwner() == Long.parseUnsignedLong(getSessionId(), 16);
    }
}
