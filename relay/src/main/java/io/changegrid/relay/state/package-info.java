/**
 * What a relay keeps on disk across restarts: its fetch position (schema history lives with the
 * fetcher).
 */
package io.changegrid.relay.state;
