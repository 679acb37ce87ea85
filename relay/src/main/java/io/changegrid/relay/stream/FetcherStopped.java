package io.changegrid.relay.stream;

/**
 * The relay's fetcher is no longer reading the source: a relay in this state holds only what it
 * fetched before, so a request for more is answered 503 rather than with empty 200s forever.
 *
 * @param state the fetch state, e.g. {@code FAILED} or {@code STOPPED}
 * @param error why it stopped, or null after a clean stop
 */
public record FetcherStopped(String state, String error) {}
