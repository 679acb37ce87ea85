package io.changegrid.consumer.group.cluster;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.helix.HelixDataAccessor;
import org.apache.helix.HelixException;
import org.apache.helix.HelixManager;
import org.apache.helix.NotificationContext;
import org.apache.helix.api.listeners.LiveInstanceChangeListener;
import org.apache.helix.model.LiveInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the group's placement ({@link GroupPlacement}) in its Helix ideal state, which is
 * CUSTOMIZED: the member whose controller leads writes {@code stream_<p> → {owner: LEADER}} for
 * every partition whenever the live members change, and Helix moves partitions to match (handing a
 * LEADER over only after the old one stepped down). It also checks every second, so a leader
 * elected after the change that concerned it still acts on it.
 *
 * <p><b>Conditional writes.</b> Two members can briefly both believe they lead (the old leader's
 * session expired and it has not heard yet). The placement is a deterministic function of what each
 * reads, and each writes only over the version it read ({@link PlacementStore}), so a write made
 * from an older view fails and is redone from a fresh reading instead of overwriting a newer
 * placement.
 *
 * <p><b>Quorum.</b> While no partition has a live owner (a group starting from nothing) and fewer
 * than {@code quorum} members are live, no partition is placed: the first member does not take
 * every partition only to hand most of them on a moment later. "Live owner" is what the members
 * report (their current states, {@link CurrentStates}), not the ideal state: after a whole group
 * stopped, the ideal state still names its members, and members that come back under the same names
 * ({@code cluster.instance} kept across restarts) would otherwise count as a running group. Such a
 * leftover placement is withdrawn (written empty) until the quorum is there; a member joining a
 * group without a leader withdraws it before it connects ({@link AbandonedPlacement}), so that its
 * own controller never acts on it.
 *
 * <p><b>Partitions in ERROR.</b> A partition whose transition threw (an epoch claim that timed out)
 * stays ERROR on its member and unowned; the leader has Helix reset it, with a backoff ({@link
 * FailedPartitions}).
 *
 * <p>Threading: everything runs on the keeper's own thread ({@code group-placement}); Helix's
 * callback only schedules a check there.
 */
final class PlacementKeeper implements LiveInstanceChangeListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PlacementKeeper.class);
    private static final long CHECK_MILLIS = 1_000;

    private final HelixManager participant;
    private final HelixManager controller;
    private final String cluster;
    private final int partitions;
    private final int quorum;
    private final ScheduledExecutorService timer;
    private final FailedPartitions failed =
            new FailedPartitions(FailedPartitions.BACKOFF, System::nanoTime);

    /** Written under this by the keeper's thread; read by status pages from any thread. */
    private volatile boolean leading;

    PlacementKeeper(
            HelixManager participant,
            HelixManager controller,
            String cluster,
            int partitions,
            int quorum) {
        this.participant = participant;
        this.controller = controller;
        this.cluster = cluster;
        this.partitions = partitions;
        this.quorum = quorum;
        this.timer =
                Executors.newSingleThreadScheduledExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "group-placement");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    void start() {
        timer.scheduleWithFixedDelay(
                this::reconcileQuietly, 0, CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Whether this member's controller led the group at the last check (at most a second ago, or
     * longer while ZooKeeper is unreachable: the check then waits for it). Never waits itself.
     */
    boolean leads() {
        return leading;
    }

    @Override
    public void onLiveInstanceChange(List<LiveInstance> live, NotificationContext context) {
        // Not on Helix's event thread: a ZooKeeper call made there while the connection is down
        // would wait for a reconnection that only that thread can process.
        reconcileSoon();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private void reconcileSoon() {
        try {
            timer.execute(this::reconcileQuietly);
        } catch (RejectedExecutionException e) {
            // Closed: the member is leaving.
        }
    }

    private void reconcileQuietly() {
        try {
            reconcile();
        } catch (RuntimeException e) {
            // Helix or ZooKeeper unavailable for a moment: the next check tries again.
            LOG.warn(
                    "group placement not updated, trying again: cluster={}, error={}",
                    cluster,
                    e.toString());
        }
    }

    /**
     * If this member leads, writes the placement the live members call for, when it changed, and
     * resets partitions stuck in ERROR whose wait is over.
     */
    synchronized void reconcile() {
        boolean leads =
                participant.isConnected() && controller.isConnected() && controller.isLeader();
        if (leads != leading) {
            leading = leads;
            LOG.info(
                    leads
                            ? "this member now places the group's partitions: cluster={}"
                            : "this member no longer places the group's partitions: cluster={}",
                    cluster);
        }
        if (!leads) {
            return;
        }
        HelixDataAccessor data = participant.getHelixDataAccessor();
        CurrentStates now = CurrentStates.read(data);
        place(data, now);
        failed.resetDue(now.failed(), this::reset);
    }

    private void place(HelixDataAccessor data, CurrentStates now) {
        List<String> live = now.liveNames();
        PlacementStore store = new PlacementStore(data);
        PlacementStore.Reading ideal = store.read();
        if (ideal == null || live.isEmpty()) {
            return;
        }
        SortedMap<Integer, String> previous = ideal.owners();
        SortedMap<Integer, String> placement;
        if (now.running() || live.size() >= quorum) {
            placement = GroupPlacement.place(partitions, live, previous);
        } else {
            // Starting from nothing below the quorum: no owner at all, also where the ideal state
            // still names members of an earlier run that are back under the same names.
            placement = new TreeMap<>();
        }
        if (placement.equals(previous)) {
            return;
        }
        if (!store.write(ideal, placement, partitions)) {
            // Written meanwhile, by a member that leads now or believed it did: read again.
            LOG.info(
                    "group placement changed while this member computed its own, checking again:"
                            + " cluster={}",
                    cluster);
            reconcileSoon();
            return;
        }
        if (placement.isEmpty()) {
            LOG.info(
                    "group placement withdrawn, the group waits for its quorum: cluster={},"
                            + " members={}, quorum={}",
                    cluster,
                    live,
                    quorum);
        } else {
            LOG.info(
                    "group placement written: cluster={}, members={}, moved={}",
                    cluster,
                    live,
                    moved(previous, placement));
        }
    }

    /** Asks Helix to take a partition out of ERROR on a member; it is then placed as usual. */
    private void reset(String instance, int partition) {
        LOG.warn(
                "partition stuck in ERROR on a member, asking Helix to reset it: cluster={},"
                        + " instance={}, partition={}, earlierResets={}",
                cluster,
                instance,
                partition,
                failed.resets(instance, partition));
        try {
            participant
                    .getClusterManagmentTool()
                    .resetPartition(
                            cluster,
                            instance,
                            GroupLayout.RESOURCE,
                            List.of(GroupLayout.partitionName(partition)));
        } catch (HelixException e) {
            // Left ERROR meanwhile, or its member went: the next check sees what remains.
            LOG.info(
                    "partition not reset: cluster={}, instance={}, partition={}, error={}",
                    cluster,
                    instance,
                    partition,
                    e.getMessage());
        }
    }

    private static int moved(Map<Integer, String> before, Map<Integer, String> after) {
        int moved = 0;
        for (Map.Entry<Integer, String> entry : after.entrySet()) {
            if (!entry.getValue().equals(before.get(entry.getKey()))) {
                moved++;
            }
        }
        return moved;
    }
}
