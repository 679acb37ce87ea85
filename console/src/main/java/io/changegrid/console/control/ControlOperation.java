package io.changegrid.console.control;

import io.changegrid.consumer.group.control.GroupControl;

/** One operator request on a consumer group, as the API names it. */
public sealed interface ControlOperation {

    /** The group it acts on. */
    String group();

    /** The partition it acts on; -1 for the whole group. */
    default int partition() {
        return -1;
    }

    /** The control as it will be after this operation, from the control as it is. */
    GroupControl applyTo(GroupControl now);

    /** Pauses ({@code pause}) or resumes every partition of the group. */
    record PauseGroup(String group, boolean pause) implements ControlOperation {
        @Override
        public GroupControl applyTo(GroupControl now) {
            return now.withGroupPaused(pause);
        }
    }

    /** Pauses ({@code pause}) or resumes one partition. */
    record PausePartition(String group, int partition, boolean pause) implements ControlOperation {
        @Override
        public GroupControl applyTo(GroupControl now) {
            return now.withPartitionPaused(partition, pause);
        }
    }

    /** Asks the partition's owner to resume right after {@code scn}. */
    record ResetCheckpoint(String group, int partition, long scn) implements ControlOperation {
        @Override
        public GroupControl applyTo(GroupControl now) {
            return now.withReset(partition, scn);
        }
    }

    /**
     * Asks the partition's owner to re-seed it: a snapshot of its subscription at its checkpoint,
     * each table emptied where its copy begins by a callback that keeps a copy (docs/bootstrap.md).
     */
    record Reseed(String group, int partition) implements ControlOperation {
        @Override
        public GroupControl applyTo(GroupControl now) {
            return now.withReseed(partition);
        }
    }
}
