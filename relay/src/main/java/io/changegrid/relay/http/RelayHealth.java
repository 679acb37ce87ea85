package io.changegrid.relay.http;

/**
 * Whether a relay is healthy, for {@code /v1/health}.
 *
 * @param fetchState RUNNING, STOPPED or FAILED
 * @param problem why the relay is unhealthy, or null while it is healthy
 */
public record RelayHealth(String fetchState, String problem) {}
