package io.changegrid.consumer.api;

/**
 * The callback returned {@link CallbackResult#FAIL}, threw, or asked to retry more often than
 * allowed. The message names the callback method, the transaction's SCN and the event's index; the
 * cause is the callback's exception, if it threw. The checkpoint was not moved past the failed
 * transaction.
 */
public final class CallbackFailedException extends ConsumerException {

    private static final long serialVersionUID = 1L;

    private final long scn;

    public CallbackFailedException(String message, long scn, Throwable cause) {
        super(message, cause);
        this.scn = scn;
    }

    /** The SCN of the transaction the callback failed on, or -1 outside a transaction. */
    public long scn() {
        return scn;
    }
}
