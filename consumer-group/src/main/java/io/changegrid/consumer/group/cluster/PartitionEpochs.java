package io.changegrid.consumer.group.cluster;

/** Claims a new ownership epoch for a partition, before the member is told it owns it. */
@FunctionalInterface
public interface PartitionEpochs {

    /**
     * @return an epoch larger than every earlier claim's for this partition
     * @throws Exception if no epoch could be claimed; the partition is then not taken on
     */
    long claim(int partition) throws Exception;
}
