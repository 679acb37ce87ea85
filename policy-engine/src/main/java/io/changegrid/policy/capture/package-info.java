/**
 * Policies as a fetcher applies them before events are stored, the same for every source: which
 * tables are captured ({@link io.changegrid.policy.capture.TableFilter}), per table schema version
 * the route its rows take (row predicate, transform, partition; {@link
 * io.changegrid.policy.capture.CaptureRouter}), and the encoding of what passes into whole
 * transactions ({@link io.changegrid.policy.capture.TransactionWriter}).
 */
package io.changegrid.policy.capture;
