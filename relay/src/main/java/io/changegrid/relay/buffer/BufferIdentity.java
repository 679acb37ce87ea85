package io.changegrid.relay.buffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Whose buffer a set of {@link SegmentFiles} holds: the source's id, and a fingerprint of every
 * setting that decides what the buffer's frames contain (source, captured tables, policies). A
 * restarted relay serves recovered frames only if both match, so a configuration change never
 * serves frames built under the old one.
 *
 * @param sourceId the relay's {@code source.id}
 * @param fingerprint the first 8 bytes of the SHA-256 of the settings' text
 */
public record BufferIdentity(int sourceId, long fingerprint) {

    /** The identity of a buffer of {@code sourceId} built under the settings {@code content}. */
    public static BufferIdentity of(int sourceId, String content) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(content.getBytes(StandardCharsets.UTF_8));
            return new BufferIdentity(sourceId, ByteBuffer.wrap(digest).getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
