package io.changegrid.appliers.group;

import io.changegrid.appliers.config.ApplierSettings;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.JdbcApplier;
import io.changegrid.config.Config;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.group.PartitionAssignment;
import io.changegrid.consumer.group.PartitionCallbackFactory;
import java.io.IOException;
import java.sql.SQLException;

/**
 * Makes the {@link JdbcApplier} of each partition a consumer group member takes on. The applier's
 * checkpoint rows are keyed by the group's name and the partition ({@code consumer_group =
 * cluster.group}, {@code partition_id = p}), so the partition's next owner, on any member, resumes
 * from them; every commit carries the owner's epoch ({@link PartitionAssignment#epoch()}), so an
 * owner that lost the partition has its batch rolled back ({@link
 * io.changegrid.appliers.checkpoint.FencedException}) as soon as the new owner opened its applier.
 *
 * <p>Threading: {@link #create} may run on several Helix transition threads at once; it shares
 * nothing but the immutable options.
 */
public final class PartitionAppliers implements PartitionCallbackFactory {

    private final ApplierOptions options;

    /**
     * @param options the applier's options; group, partition and epoch are replaced per partition
     */
    public PartitionAppliers(ApplierOptions options) {
        this.options = options;
    }

    /**
     * The factory of an applier configuration ({@link ApplierSettings#SCHEMA}).
     *
     * @throws io.changegrid.config.ConfigException naming the key of an invalid setting
     */
    public static PartitionAppliers from(Config config) {
        return new PartitionAppliers(ApplierSettings.options(config));
    }

    @Override
    public ConsumerCallback create(PartitionAssignment assignment) throws IOException {
        ApplierOptions partition =
                options.forPartition(assignment.group(), assignment.partition(), assignment::epoch);
        try {
            return JdbcApplier.open(partition);
        } catch (SQLException e) {
            throw new IOException(
                    "target not ready for the partition's applier: group="
                            + assignment.group()
                            + ", partition="
                            + assignment.partition()
                            + ", epoch="
                            + assignment.epoch()
                            + ", target="
                            + options.url()
                            + ", error="
                            + e.getMessage(),
                    e);
        }
    }
}
