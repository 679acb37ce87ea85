/**
 * Measuring consumers, each its own JVM as in the whitepaper: the consumer library (binary) or a
 * plain HTTP client parsing JSON (what a consumer in another language does), timed by themselves
 * from their first event to their last.
 */
package io.changegrid.bench.consumer;
