package io.changegrid.relay.stream;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.relay.buffer.EventBuffer;
import java.util.function.LongSupplier;

/**
 * What every {@link StreamExchange} of one relay shares: the buffer it reads, the schemas its
 * frames name, the serving-memory budget, the count of parked polls, and the source time every
 * answer carries.
 *
 * @param buffer the event buffer served
 * @param registry the schemas the buffer's frames name
 * @param memory the heap budget of responses' copies
 * @param parkedPolls the parked requests, against their limit
 * @param sourceTimeMillis the source time of the newest entry the fetcher received, or -1 ({@link
 *     io.changegrid.protocol.StreamResponse#SOURCE_TIME}); read when an answer is sent
 * @param meters what is served, per principal
 * @param edgeLingerNanos how long a request that would get a small response may wait for more, from
 *     its arrival ({@code http.edgeLinger}; 0: never)
 */
record StreamServing(
        EventBuffer buffer,
        SchemaRegistry registry,
        ServingMemory memory,
        ParkedPolls parkedPolls,
        LongSupplier sourceTimeMillis,
        ServingMeters meters,
        long edgeLingerNanos) {}
