package io.changegrid.relay.stream;

import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.relay.buffer.EventBuffer;

/**
 * What every {@link StreamExchange} of one relay shares: the buffer it reads, the schemas its
 * frames name, the serving-memory budget and the count of parked polls.
 *
 * @param buffer the event buffer served
 * @param registry the schemas the buffer's frames name
 * @param memory the heap budget of responses' copies
 * @param parkedPolls the parked requests, against their limit
 */
record StreamServing(
        EventBuffer buffer,
        SchemaRegistry registry,
        ServingMemory memory,
        ParkedPolls parkedPolls) {}
