package io.changegrid.consumer.dispatch;

/**
 * Whether the dispatcher may hand transactions to the callback now. A consumer-group member closes
 * it while it cannot be sure it still owns the partition (its ZooKeeper session disconnected or
 * expired, its process was paused); the dispatcher then rolls the open batch back and waits, and
 * goes on from the checkpoint once the gate opens again, or stops when asked to.
 *
 * <p>Threading: asked on the dispatcher thread before every transaction and batch end, so {@link
 * #isOpen} must be cheap (volatile reads, no I/O); it may change from any thread.
 */
@FunctionalInterface
public interface DeliveryGate {

    /** Never closes: a consumer on its own. */
    DeliveryGate ALWAYS_OPEN = () -> true;

    /** Whether delivery may go on. */
    boolean isOpen();
}
