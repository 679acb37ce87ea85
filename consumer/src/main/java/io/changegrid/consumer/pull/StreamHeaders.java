package io.changegrid.consumer.pull;

import io.changegrid.protocol.StreamResponse;
import org.eclipse.jetty.http.HttpFields;

/**
 * The headers of a relay's 200 answer to {@code GET /v1/stream} that the consumer acts on, read
 * once per response. Their consistency with the body is {@link ResponseCheck}'s to judge.
 *
 * @param lastScn the checkpoint after the response ({@link StreamResponse#LAST_SCN})
 * @param newestScn the newest SCN the relay holds ({@link StreamResponse#NEWEST_SCN})
 * @param sourceId the source the relay reads ({@link StreamResponse#SOURCE_ID})
 * @param schemaFingerprint the relay's policies' fingerprint ({@link StreamResponse#SCHEMAS}), or
 *     null
 * @param sourceTimeMillis the source time of the newest entry the relay received ({@link
 *     StreamResponse#SOURCE_TIME}), or {@link #NO_SOURCE_TIME} from a relay that does not send it
 * @param timeline the relay's timeline ({@link StreamResponse#TIMELINE}), empty from a relay that
 *     does not name one
 * @param snapshot the snapshot cursor after the response ({@link StreamResponse#SNAPSHOT}), or null
 *     when the request asked for no snapshot
 * @param parts the parts of the transaction after {@code lastScn} the consumer holds when the body
 *     ends inside a transaction published in parts ({@link StreamResponse#PARTS}), else 0
 */
record StreamHeaders(
        long lastScn,
        long newestScn,
        int sourceId,
        String schemaFingerprint,
        long sourceTimeMillis,
        String timeline,
        String snapshot,
        int parts) {

    /** The source time of a relay older than {@link StreamResponse#SOURCE_TIME}: never stalled. */
    static final long NO_SOURCE_TIME = Long.MIN_VALUE;

    /** Headers without a timeline or a snapshot cursor. */
    StreamHeaders(
            long lastScn,
            long newestScn,
            int sourceId,
            String schemaFingerprint,
            long sourceTimeMillis) {
        this(lastScn, newestScn, sourceId, schemaFingerprint, sourceTimeMillis, "", null, 0);
    }

    /** Headers without a snapshot cursor. */
    StreamHeaders(
            long lastScn,
            long newestScn,
            int sourceId,
            String schemaFingerprint,
            long sourceTimeMillis,
            String timeline) {
        this(lastScn, newestScn, sourceId, schemaFingerprint, sourceTimeMillis, timeline, null, 0);
    }

    /** Headers without a source time. */
    StreamHeaders(long lastScn, long newestScn, int sourceId, String schemaFingerprint) {
        this(lastScn, newestScn, sourceId, schemaFingerprint, NO_SOURCE_TIME);
    }

    /**
     * Reads the headers of a response.
     *
     * @throws IllegalArgumentException naming a header that is missing or not a number
     */
    static StreamHeaders read(HttpFields headers) {
        return new StreamHeaders(
                number(headers, StreamResponse.LAST_SCN),
                number(headers, StreamResponse.NEWEST_SCN),
                (int) number(headers, StreamResponse.SOURCE_ID),
                headers.get(StreamResponse.SCHEMAS),
                headers.contains(StreamResponse.SOURCE_TIME)
                        ? number(headers, StreamResponse.SOURCE_TIME)
                        : NO_SOURCE_TIME,
                headers.contains(StreamResponse.TIMELINE)
                        ? headers.get(StreamResponse.TIMELINE)
                        : "",
                headers.get(StreamResponse.SNAPSHOT),
                headers.contains(StreamResponse.PARTS)
                        ? (int) number(headers, StreamResponse.PARTS)
                        : 0);
    }

    private static long number(HttpFields headers, String name) {
        String value = headers.get(name);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "response lacks a valid header: name=" + name + ", value=" + value, e);
        }
    }
}
