package io.changegrid.consumer.group;

import io.changegrid.consumer.group.checkpoint.GroupCheckpoints;
import io.changegrid.consumer.group.cluster.ClusterMember;
import io.changegrid.consumer.group.cluster.Ownership;
import io.changegrid.consumer.group.cluster.PartitionListener;
import io.changegrid.consumer.group.config.GroupConfig;
import io.changegrid.consumer.group.control.ControlWatch;
import io.changegrid.consumer.group.control.GroupControl;
import io.changegrid.consumer.group.control.GroupControls;
import io.changegrid.consumer.group.discovery.RelayDirectory;
import io.changegrid.consumer.group.metrics.MemberMetrics;
import io.changegrid.protocol.RelayApi;
import io.changegrid.protocol.RelayRegistration;
import io.changegrid.protocol.WantedTables;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of a consumer group: joins the group ({@link ClusterMember}), and for every partition
 * Helix assigns it runs a {@link io.changegrid.consumer.Consumer} restricted to that partition,
 * checkpointing in ZooKeeper under the partition's ownership epoch ({@link GroupCheckpoints}). A
 * revoked partition's consumer is stopped (its batch finished and checkpointed) before Helix hands
 * the partition on, so a planned move re-delivers nothing; after a crash, the next owner resumes at
 * the last checkpoint, so only the crashed owner's un-checkpointed batches are delivered twice.
 *
 * <pre>{@code
 * PartitionConfigs settings = PartitionConfigs.of(Map.of(
 *         "cluster.zookeeper", "zk1:2181,zk2:2181",
 *         "cluster.group", "orders",
 *         "subscription.tables", "shop.orders",
 *         "subscription.partitions", 12), List.of());
 * try (GroupConsumer member = GroupConsumer.start(settings, assignment -> new OrderSink(assignment))) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Operator control: the member watches its group's control node ({@link ControlWatch}); a paused
 * partition (or group) keeps its owner but delivers nothing, and a checkpoint reset asked for a
 * partition is applied by its owner alone, through its epoch-fenced checkpoint store, then
 * acknowledged by removing it from the node with a version-checked write.
 *
 * <p>Relays: the configured {@code relays}, or, when none are configured, the relays registered in
 * ZooKeeper for {@code cluster.relaySource} that publish all of what the partition subscribes to
 * (every row of the subscribed tables, or of every table, and of the partition: a relay publishing
 * one partition of the source only for that partition of a group split alike), as {@link
 * RelayRegistration#isReplicaFor} decides; each partition gets them rotated by its number, so
 * partitions spread over the replicas and fail over among them.
 *
 * <p>Metrics: each running partition's consumer (and a {@link
 * io.changegrid.consumer.group.metrics.MeteredCallback}'s own meters) in the member's {@link
 * MemberMetrics}, served with the JVM's on the status endpoint's {@code GET /metrics}.
 *
 * <p>Threading: thread-safe. Helix calls the listener on its state transition threads; relay
 * changes are applied on a thread of the member's own ({@code group-relays}).
 */
public final class GroupConsumer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupConsumer.class);

    private final PartitionConfigs configs;
    private final GroupConfig group;
    private final PartitionCallbackFactory callbacks;
    private final List<WantedTables> wanted;
    private final ZooKeeperSession zooKeeper;
    private final GroupCheckpoints checkpoints;
    private final GroupControls controls;
    private final ControlWatch control;
    private final Map<Integer, PartitionRunner> runners = new ConcurrentHashMap<>();
    private final MemberMetrics metrics;
    private final ExecutorService relayChanges;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile RelayDirectory directory;
    private volatile StatusEndpoint statusEndpoint;
    private volatile ClusterMember member;
    private volatile boolean closing;

    private GroupConsumer(
            PartitionConfigs configs,
            PartitionCallbackFactory callbacks,
            ZooKeeperSession zooKeeper) {
        this.configs = configs;
        this.group = configs.group();
        this.callbacks = callbacks;
        this.wanted = configs.wantedTables();
        this.zooKeeper = zooKeeper;
        this.checkpoints = new GroupCheckpoints(zooKeeper, group.group());
        this.controls = new GroupControls(zooKeeper, group.group());
        this.control = new ControlWatch(zooKeeper, group.group(), asked -> controlChanged());
        this.metrics = new MemberMetrics(group.group(), runners::size);
        this.relayChanges =
                Executors.newSingleThreadExecutor(
                        runnable -> {
                            Thread thread = new Thread(runnable, "group-relays");
                            thread.setDaemon(true);
                            return thread;
                        });
    }

    /**
     * Connects to ZooKeeper, starts the status endpoint if configured, and joins the group;
     * partitions are taken on as Helix assigns them, from this call on.
     *
     * @throws Exception if ZooKeeper is unreachable, the group exists with another number of
     *     partitions, or the status endpoint cannot listen
     */
    public static GroupConsumer start(PartitionConfigs configs, PartitionCallbackFactory callbacks)
            throws Exception {
        GroupConfig group = configs.group();
        // Helix opens its ZooKeeper clients from the JVM's properties only (docs/security.md).
        group.zooKeeperTls().applyToJvm();
        ZooKeeperSession zooKeeper =
                ZooKeeperSession.open(
                        group.zooKeeper(),
                        group.sessionTimeout(),
                        group.credentials(),
                        group.zooKeeperTls());
        GroupConsumer consumer = new GroupConsumer(configs, callbacks, zooKeeper);
        try {
            consumer.join();
        } catch (Exception | Error e) {
            consumer.close();
            throw e;
        }
        return consumer;
    }

    private void join() throws Exception {
        long worstCase = (long) group.partitions() * configs.bufferCapacity();
        if (worstCase > Runtime.getRuntime().maxMemory() / 2) {
            // Each owned partition has a consumer buffer of its own, and a member may come to own
            // all of them when the others are gone.
            LOG.warn(
                    "the heap may be too small for this member to own every partition:"
                            + " subscription.partitions={}, buffer.capacity={}, maxHeapBytes={}",
                    group.partitions(),
                    configs.bufferCapacity(),
                    Runtime.getRuntime().maxMemory());
        }
        if (configs.configuredRelays().isEmpty()) {
            RelayDirectory found =
                    new RelayDirectory(zooKeeper, group.relaySource(), relays -> relaysChanged());
            directory = found;
            found.start();
        }
        control.start();
        String statusUrl = null;
        if (group.statusPort() >= 0) {
            StatusEndpoint endpoint =
                    new StatusEndpoint(
                            group.statusHost(),
                            group.statusPort(),
                            group.statusTls(),
                            this::status,
                            metrics::scrape);
            statusEndpoint = endpoint;
            endpoint.start();
            statusUrl = endpoint.url();
        }
        member =
                ClusterMember.join(
                        group,
                        statusUrl,
                        partition -> checkpoints.claim(partition, group.instance()),
                        new Listener());
        LOG.info(
                "group member started: group={}, instance={}, status={}, relays={}",
                group.group(),
                group.instance(),
                statusUrl == null ? "none" : statusUrl + RelayApi.STATUS,
                directory == null
                        ? configs.configuredRelays()
                        : "registered for source " + group.relaySource());
    }

    /** The group settings. */
    public GroupConfig group() {
        return group;
    }

    /** The status endpoint's base URL, or null if none runs. */
    public String statusUrl() {
        StatusEndpoint endpoint = statusEndpoint;
        return endpoint == null ? null : endpoint.url();
    }

    /** What this member runs now. */
    public GroupStatus status() {
        List<PartitionStatus> partitions = new ArrayList<>();
        for (PartitionRunner runner : runners.values()) {
            partitions.add(runner.status());
        }
        partitions.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        ClusterMember joined = member;
        List<String> relays = new ArrayList<>();
        if (directory == null) {
            configs.configuredRelays().forEach(relay -> relays.add(relay.toString()));
        } else {
            fittingRelays().forEach(relays::add);
        }
        return new GroupStatus(
                group.group(),
                group.instance(),
                joined != null && joined.isConnected(),
                joined != null && joined.isLeader(),
                relays,
                partitions);
    }

    /** Blocks until {@link #close()} finished. */
    public void awaitClose() throws InterruptedException {
        closed.await();
    }

    /**
     * Leaves the group: stops every partition's consumer (each finishes and checkpoints its batch),
     * then leaves Helix so the partitions move, and disconnects. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        try {
            List<PartitionRunner> stopping = new ArrayList<>(runners.values());
            stopping.forEach(PartitionRunner::requestStop);
            stopping.forEach(PartitionRunner::awaitStopped);
            runners.clear();
            if (member != null) {
                member.close();
            }
        } finally {
            relayChanges.shutdownNow();
            control.close();
            if (directory != null) {
                directory.close();
            }
            if (statusEndpoint != null) {
                statusEndpoint.close();
            }
            metrics.close();
            zooKeeper.close();
            LOG.info(
                    "group member stopped: group={}, instance={}", group.group(), group.instance());
            closed.countDown(); // after the last line: the process may exit as soon as it sees this
        }
    }

    /** The relays partition {@code partition} pulls from: empty to use the configured ones. */
    private List<String> relaysFor(int partition) {
        if (directory == null) {
            return List.of();
        }
        List<String> fitting = new ArrayList<>();
        for (RelayRegistration relay : directory.relays()) {
            if (relay.isReplicaFor(wanted, partition, group.partitions())) {
                fitting.add(URI.create(relay.endpoint()).toString());
            }
        }
        if (fitting.isEmpty()) {
            return fitting;
        }
        List<String> rotated = new ArrayList<>(fitting);
        Collections.rotate(rotated, -(partition % fitting.size()));
        return rotated;
    }

    /** The registered relays that are replicas for some partition of the group. */
    private List<String> fittingRelays() {
        List<String> fitting = new ArrayList<>();
        for (RelayRegistration relay : directory.relays()) {
            if (IntStream.range(0, group.partitions())
                    .anyMatch(
                            partition ->
                                    relay.isReplicaFor(wanted, partition, group.partitions()))) {
                fitting.add(URI.create(relay.endpoint()).toString());
            }
        }
        return fitting;
    }

    private void relaysChanged() {
        if (closing) {
            return;
        }
        try {
            relayChanges.execute(
                    () -> {
                        for (PartitionRunner runner : runners.values()) {
                            runner.relaysChanged(relaysFor(runner.assignment().partition()));
                        }
                        // A partition that waited for a relay applies the reset it was asked.
                        if (!control.current().resets().isEmpty()
                                || !control.current().reseeds().isEmpty()) {
                            applyResets();
                        }
                    });
        } catch (RejectedExecutionException e) {
            // Closing: partitions are being stopped anyway.
        }
    }

    private void controlChanged() {
        if (closing) {
            return;
        }
        try {
            relayChanges.execute(this::applyResets);
        } catch (RejectedExecutionException e) {
            // Closing: partitions are being stopped anyway.
        }
    }

    /**
     * Applies the checkpoint resets asked for the partitions this member owns, each by its runner
     * under its epoch, and removes each applied one from the control node. Runs on {@code
     * group-relays}, so resets and relay restarts never interleave.
     */
    private void applyResets() {
        applyReseeds();
        GroupControl asked = control.current();
        for (Map.Entry<Integer, Long> reset : asked.resets().entrySet()) {
            PartitionRunner runner = runners.get(reset.getKey());
            if (runner == null || closing) {
                continue; // not ours: its owner applies it
            }
            int partition = reset.getKey();
            long scn = reset.getValue();
            if (!runner.resetTo(scn)) {
                continue;
            }
            try {
                controls.update(now -> now.withResetApplied(partition, scn));
                LOG.info(
                        "control applied: reset partition={}, epoch={}, scn={}",
                        partition,
                        runner.assignment().epoch(),
                        scn);
            } catch (IOException e) {
                LOG.warn(
                        "reset applied but not acknowledged, it will be applied again:"
                                + " partition={}, scn={}, error={}",
                        partition,
                        scn,
                        e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Applies the re-seeds asked for the partitions this member owns, each by its runner under its
     * epoch, and removes each applied one from the control node. On {@code group-relays}, as
     * resets.
     */
    private void applyReseeds() {
        for (int partition : control.current().reseeds()) {
            PartitionRunner runner = runners.get(partition);
            if (runner == null || closing) {
                continue; // not ours: its owner applies it
            }
            if (!runner.reseed()) {
                continue;
            }
            try {
                controls.update(now -> now.withReseedApplied(partition));
                LOG.info(
                        "control applied: re-seed partition={}, epoch={}",
                        partition,
                        runner.assignment().epoch());
            } catch (IOException e) {
                LOG.warn(
                        "re-seed applied but not acknowledged, it will be applied again:"
                                + " partition={}, error={}",
                        partition,
                        e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Helix's view of this member's partitions, turned into running and stopped consumers. */
    private final class Listener implements PartitionListener {

        @Override
        public void onAssigned(int partition, long epoch, Ownership ownership) {
            if (closing) {
                throw new IllegalStateException(
                        "member is leaving the group: instance="
                                + group.instance()
                                + ", partition="
                                + partition);
            }
            PartitionAssignment assignment =
                    new PartitionAssignment(
                            group.group(), group.instance(), partition, group.partitions(), epoch);
            PartitionRunner runner =
                    new PartitionRunner(
                            assignment,
                            checkpoints.store(partition, epoch, group.instance()),
                            ownership::isHeld,
                            () -> control.current().isPaused(partition),
                            configs,
                            callbacks,
                            metrics.registry());
            PartitionRunner previous = runners.put(partition, runner);
            if (previous != null) {
                previous.requestStop();
                previous.awaitStopped();
            }
            LOG.info("partition assigned: partition={}, epoch={}", partition, epoch);
            runner.start(relaysFor(partition));
            if (control.current().resetOf(partition).isPresent()
                    || control.current().reseeds().contains(partition)) {
                controlChanged();
            }
        }

        @Override
        public void onRevoked(int partition) {
            PartitionRunner runner = runners.remove(partition);
            if (runner == null) {
                return;
            }
            long started = System.nanoTime();
            runner.requestStop();
            runner.awaitStopped();
            LOG.info(
                    "partition revoked: partition={}, epoch={}, stopMillis={}",
                    partition,
                    runner.assignment().epoch(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
    }
}
