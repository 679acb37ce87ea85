package io.changegrid.consumer;

/** Where a {@link Consumer} is in its life. */
public enum ConsumerState {
    /** Built, not started. */
    NEW,
    /** Pulling and dispatching. */
    RUNNING,
    /** Asked to stop; finishing the transaction in progress. */
    STOPPING,
    /** Stopped on request, or after the puller ended and everything buffered was delivered. */
    STOPPED,
    /** Stopped on an error: see {@link Consumer#failure()}. */
    FAILED
}
