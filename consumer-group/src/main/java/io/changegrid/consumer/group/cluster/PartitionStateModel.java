package io.changegrid.consumer.group.cluster;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.helix.NotificationContext;
import org.apache.helix.model.Message;
import org.apache.helix.participant.statemachine.StateModel;
import org.apache.helix.participant.statemachine.StateModelInfo;
import org.apache.helix.participant.statemachine.Transition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition on one member, in Helix's LeaderStandby state model: LEADER means the member owns
 * it; STANDBY and OFFLINE mean it does not. Turns transitions into {@link PartitionListener} calls,
 * claiming the ownership epoch first.
 *
 * <p>Why LeaderStandby and not OnlineOffline: Helix moves an OnlineOffline partition make-before-
 * break, bringing it ONLINE on the new member before the old one is told to go OFFLINE (measured:
 * every move of a join/leave sequence overlapped), whereas it hands a LEADER over only after the
 * old leader stepped down. With one replica per partition the standby state is only a step on the
 * way to LEADER; no member does any work in it.
 *
 * <p>Public only because Helix calls the transition methods reflectively.
 *
 * <p>Threading: Helix runs one transition of a partition at a time, but {@link #reset()} comes from
 * its session handling thread; the methods are synchronized so that a reset never interleaves with
 * an assignment.
 */
@StateModelInfo(
        initialState = "OFFLINE",
        states = {"LEADER", "STANDBY", "OFFLINE", "ERROR", "DROPPED"})
public final class PartitionStateModel extends StateModel {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionStateModel.class);

    private final int partition;
    private final PartitionEpochs epochs;
    private final SessionLease lease;
    private final PartitionListener listener;
    private boolean owned;
    private AtomicBoolean ended =
            new AtomicBoolean(true); // the current assignment's; guarded by this

    PartitionStateModel(
            int partition, PartitionEpochs epochs, SessionLease lease, PartitionListener listener) {
        this.partition = partition;
        this.epochs = epochs;
        this.lease = lease;
        this.listener = listener;
    }

    @Transition(from = "STANDBY", to = "LEADER")
    public synchronized void onBecomeLeaderFromStandby(Message message, NotificationContext context)
            throws Exception {
        try {
            // Taken before the claim: if the session lapses while claiming, it is not held.
            Ownership session = lease.ownership();
            long epoch = epochs.claim(partition);
            AtomicBoolean assignmentEnded = new AtomicBoolean();
            ended = assignmentEnded;
            owned = true;
            listener.onAssigned(partition, epoch, () -> !assignmentEnded.get() && session.isHeld());
        } catch (Exception | Error e) {
            LOG.error("partition not taken on: partition={}, error={}", partition, e.toString(), e);
            revoke();
            throw e;
        }
    }

    @Transition(from = "LEADER", to = "STANDBY")
    public synchronized void onBecomeStandbyFromLeader(
            Message message, NotificationContext context) {
        revoke();
    }

    @Transition(from = "OFFLINE", to = "STANDBY")
    public void onBecomeStandbyFromOffline(Message message, NotificationContext context) {
        // A step on the way to LEADER: nothing runs for a standby partition.
    }

    @Transition(from = "STANDBY", to = "OFFLINE")
    public void onBecomeOfflineFromStandby(Message message, NotificationContext context) {
        // Nothing runs for a standby partition.
    }

    @Transition(from = "OFFLINE", to = "DROPPED")
    public void onBecomeDroppedFromOffline(Message message, NotificationContext context) {
        // Nothing runs for an offline partition.
    }

    @Transition(from = "ERROR", to = "OFFLINE")
    public synchronized void onBecomeOfflineFromError(
            Message message, NotificationContext context) {
        revoke();
    }

    /** The session was lost (or the member disconnects): whatever was owned is owned no more. */
    @Override
    public synchronized void reset() {
        revoke();
    }

    private void revoke() {
        if (owned) {
            owned = false;
            // The listener first: a planned move finishes and checkpoints the batch in progress,
            // which the partition still owns. Only then is the ownership ended, also for a consumer
            // that did not stop in time.
            listener.onRevoked(partition);
            ended.set(true);
        }
    }
}
