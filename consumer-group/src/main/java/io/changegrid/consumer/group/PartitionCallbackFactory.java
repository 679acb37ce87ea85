package io.changegrid.consumer.group;

import io.changegrid.consumer.api.ConsumerCallback;
import java.io.IOException;

/**
 * Makes the callback of each partition a member takes on. A callback that is {@link AutoCloseable}
 * is closed after its partition's consumer stopped.
 *
 * <p>Threading: called on Helix's state transition threads, possibly for several partitions at
 * once.
 */
@FunctionalInterface
public interface PartitionCallbackFactory {

    /**
     * @throws IOException if the callback's resources cannot be opened; the partition is then
     *     reported FAILED by this member
     */
    ConsumerCallback create(PartitionAssignment assignment) throws IOException;
}
