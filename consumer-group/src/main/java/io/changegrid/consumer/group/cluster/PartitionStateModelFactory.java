package io.changegrid.consumer.group.cluster;

import org.apache.helix.participant.statemachine.StateModelFactory;

/** Makes the state model of each partition Helix names ({@code stream_<n>}). */
final class PartitionStateModelFactory extends StateModelFactory<PartitionStateModel> {

    private final PartitionEpochs epochs;
    private final SessionLease lease;
    private final PartitionListener listener;

    PartitionStateModelFactory(
            PartitionEpochs epochs, SessionLease lease, PartitionListener listener) {
        this.epochs = epochs;
        this.lease = lease;
        this.listener = listener;
    }

    @Override
    public PartitionStateModel createNewStateModel(String resource, String partitionName) {
        return new PartitionStateModel(
                GroupLayout.partitionIndex(partitionName), epochs, lease, listener);
    }
}
