/**
 * The callbacks {@code ConsumerMain} offers without user code: each event as a JSON line in a file
 * ({@link io.changegrid.consumer.sink.JsonLinesFileCallback}), or counted for benchmarks ({@link
 * io.changegrid.consumer.sink.CountingCallback}); {@link
 * io.changegrid.consumer.sink.CallbackLoader} picks one, or a user's class, by name.
 */
package io.changegrid.consumer.sink;
