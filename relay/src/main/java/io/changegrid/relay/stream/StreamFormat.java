package io.changegrid.relay.stream;

/** How {@code /v1/stream} encodes events. */
public enum StreamFormat {
    /** The buffer's frame bytes as they are: serialized once in the relay, never re-encoded. */
    BINARY,
    /** One JSON object per line (the events' JSON form), for other languages and for curl. */
    JSON
}
