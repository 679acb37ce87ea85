package io.changegrid.consumer.config;

/**
 * What a consumer does when every relay answers that its checkpoint is older than anything it holds
 * (HTTP 410): {@code bootstrap.onTooOld}.
 */
public enum TooOldAction {
    /** Stop with {@link io.changegrid.consumer.api.BootstrapRequiredException}. */
    FAIL,
    /**
     * Bootstrap by itself: begin a snapshot at the relay's newest SCN (docs/bootstrap.md) and carry
     * on with the live stream after it.
     */
    SNAPSHOT
}
