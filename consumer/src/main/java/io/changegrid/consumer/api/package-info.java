/**
 * What an application sees of a consumer, and all a user callback compiles against: the callback
 * contract ({@link io.changegrid.consumer.api.ConsumerCallback} with its severity-ordered {@link
 * io.changegrid.consumer.api.CallbackResult}), the read-only views of the current event and
 * transaction, the pluggable {@link io.changegrid.consumer.api.CheckpointStore}, and the errors a
 * consumer stops with. No transport or cluster types appear here.
 */
package io.changegrid.consumer.api;
