package io.changegrid.consumer.pull;

/**
 * The puller's states.
 *
 * <pre>
 *            picked                    pulled (200)
 * PICK_RELAY -------&gt; STREAMING &lt;----------------+
 *     ^                 |  |  |                   |
 *     |   relay error,  |  |  +-------------------+
 *     |   410 from some |  |
 *     +-----------------+  | every relay failed in a row
 *     |                    v
 *     +--- elapsed --- BACKOFF
 *
 * STREAMING --- 410 from every relay, 400, body larger than the buffer ---&gt; FAILED
 * any state --- stop ---&gt; STOPPED
 * </pre>
 */
public enum PullerState {
    /** Choosing the relay to ask next. */
    PICK_RELAY,
    /** Long-polling the chosen relay and copying its responses into the buffer. */
    STREAMING,
    /** Every relay failed in a row: waiting before the next round. */
    BACKOFF,
    /** Stopped on an error that no relay can cure; the consumer stops with it. */
    FAILED,
    /** Stopped on request. */
    STOPPED;

    /** Whether the puller has ended. */
    public boolean isTerminal() {
        return this == FAILED || this == STOPPED;
    }
}
