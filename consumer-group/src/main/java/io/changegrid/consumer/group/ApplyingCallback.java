package io.changegrid.consumer.group;

/**
 * A partition callback that applies into a target (the JDBC applier): its {@link ApplierStatus}
 * joins its partition's entry of the member's {@code GET /v1/status}, where the console reads it.
 *
 * <p>Called on the status endpoint's threads: what it reads must be safe to read from another
 * thread (a volatile field, an atomic).
 */
public interface ApplyingCallback {

    /** The applier's figures now. */
    ApplierStatus applierStatus();
}
