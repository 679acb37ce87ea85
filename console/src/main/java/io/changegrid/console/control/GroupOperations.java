package io.changegrid.console.control;

import io.changegrid.console.control.ControlOperation.PauseGroup;
import io.changegrid.console.control.ControlOperation.ResetCheckpoint;
import io.changegrid.console.grid.GridSnapshot;
import io.changegrid.console.grid.GroupSnapshot;
import io.changegrid.consumer.group.control.GroupControls;
import io.changegrid.protocol.zookeeper.ZooKeeperSession;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out control operations: checks each against the grid as last sampled (the group exists,
 * the partition is one of its partitions, a reset's partition is paused), writes it to the group's
 * control node (version-checked, so concurrent operators never undo each other), and audits it on
 * the {@value #AUDIT_LOGGER} logger: who, what, and the node version written, or why refused.
 *
 * <p>Fencing: nothing here moves ownership. A pause closes the owner's delivery gate where the
 * partition is; a reset is applied by the owner alone through its epoch-fenced checkpoint store.
 * Resets need the partition paused first, so an operator rewinds a partition that is standing
 * still, not one in the middle of a batch.
 *
 * <p>Threading: thread-safe.
 */
public final class GroupOperations {

    /** The logger the audit trail goes to. */
    public static final String AUDIT_LOGGER = "io.changegrid.console.audit";

    private static final Logger AUDIT = LoggerFactory.getLogger(AUDIT_LOGGER);

    private final ZooKeeperSession zooKeeper;
    private final Supplier<GridSnapshot> grid;

    public GroupOperations(ZooKeeperSession zooKeeper, Supplier<GridSnapshot> grid) {
        this.zooKeeper = zooKeeper;
        this.grid = grid;
    }

    /**
     * Checks and writes {@code operation} for {@code operator}.
     *
     * @return the control node's version after the write (unchanged if the operation changed
     *     nothing; -1 if nothing was ever written)
     * @throws ControlRejected if the grid forbids it; nothing was written
     * @throws IOException if ZooKeeper could not be written
     */
    public int apply(ControlOperation operation, String operator)
            throws ControlRejected, IOException, InterruptedException {
        try {
            check(operation);
            GroupControls controls = new GroupControls(zooKeeper, operation.group());
            AtomicBoolean running = new AtomicBoolean();
            // The paused check and the write are one version-checked update: a resume that lands
            // between them makes the update read again and refuse.
            GroupControls.Versioned written =
                    controls.update(
                            now -> {
                                running.set(
                                        operation instanceof ResetCheckpoint
                                                && !now.isPaused(operation.partition()));
                                return running.get() ? now : operation.applyTo(now);
                            });
            if (running.get()) {
                throw new ControlRejected(
                        409,
                        "pause the partition before resetting its checkpoint: group="
                                + operation.group()
                                + ", partition="
                                + operation.partition());
            }
            AUDIT.info(
                    "control accepted: operator={}, operation={}, node={}, version={}",
                    operator,
                    operation,
                    controls.path(),
                    written.version());
            return written.version();
        } catch (ControlRejected | IOException e) {
            AUDIT.warn(
                    "control refused: operator={}, operation={}, reason={}",
                    operator,
                    operation,
                    e.getMessage());
            throw e;
        }
    }

    private void check(ControlOperation operation) throws ControlRejected {
        GroupSnapshot group =
                grid.get().groups().stream()
                        .filter(g -> g.group().equals(operation.group()))
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new ControlRejected(
                                                404,
                                                "no such consumer group: group="
                                                        + operation.group()));
        int partitions = group.report() == null ? -1 : group.report().path("partitions").asInt(-1);
        if (!(operation instanceof PauseGroup)) {
            checkPartition(operation.partition(), partitions, operation);
        }
        if (operation instanceof ResetCheckpoint reset) {
            if (reset.scn() < -1) {
                throw new ControlRejected(
                        400,
                        "checkpoint must be an SCN or -1 (the oldest held): scn=" + reset.scn());
            }
        }
    }

    private static void checkPartition(int partition, int partitions, ControlOperation operation)
            throws ControlRejected {
        if (partitions < 0) {
            throw new ControlRejected(
                    409, "consumer group not readable now: group=" + operation.group());
        }
        if (partition < 0 || partition >= partitions) {
            throw new ControlRejected(
                    400,
                    "no such partition: group="
                            + operation.group()
                            + ", partition="
                            + partition
                            + ", partitions="
                            + partitions);
        }
    }
}
