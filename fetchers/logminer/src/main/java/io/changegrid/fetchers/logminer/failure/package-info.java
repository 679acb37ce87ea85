/**
 * What stops the LogMiner fetcher: {@link
 * io.changegrid.fetchers.logminer.failure.FetchFailedException}, thrown by every part of it (its
 * own package so the parts depend on it, never on each other in a cycle).
 */
package io.changegrid.fetchers.logminer.failure;
