package io.changegrid.consumer.api;

/**
 * Every relay answered that the consumer's checkpoint is older than anything it holds (HTTP 410):
 * the transactions in between are gone from the relays, so continuing would skip data. The consumer
 * must be bootstrapped from a snapshot taken at or after {@link #oldestScn()}; a consumer never
 * jumps ahead on its own.
 */
public final class BootstrapRequiredException extends ConsumerException {

    private static final long serialVersionUID = 1L;

    private final long checkpointScn;
    private final long oldestScn;

    public BootstrapRequiredException(long checkpointScn, long oldestScn, String relays) {
        super(
                "checkpoint older than every relay's buffer, the consumer must bootstrap: checkpoint="
                        + checkpointScn
                        + ", oldestScn="
                        + oldestScn
                        + ", relays="
                        + relays);
        this.checkpointScn = checkpointScn;
        this.oldestScn = oldestScn;
    }

    /** The checkpoint the consumer asked to continue after. */
    public long checkpointScn() {
        return checkpointScn;
    }

    /** The oldest SCN a relay still holds (the newest of the relays' answers). */
    public long oldestScn() {
        return oldestScn;
    }
}
