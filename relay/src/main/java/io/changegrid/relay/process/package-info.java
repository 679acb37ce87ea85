/**
 * The relay process's own fate: how it ends when a thread meets an {@link Error}. Used by the
 * fetcher loop and by every serving thread, so it lives below both.
 */
package io.changegrid.relay.process;
