package io.changegrid.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * Where a snapshot stands (docs/bootstrap.md): the table being copied and the last primary key read
 * from it, and the high watermark of the chunk that read it. A relay writes it into {@link
 * StreamResponse#SNAPSHOT}; the consumer keeps it in its checkpoint and sends it back as {@link
 * StreamParameters#SNAPSHOT}, to the same relay or any replica of the source, which continues after
 * that key. Consumers treat the text as opaque.
 *
 * <p>Text form: {@code v1:<watermark>:<database>:<table>:<key>}, the names as base64url of their
 * UTF-8 and the key as base64url of its key image (the frame format's row-image encoding of the
 * source table's key columns), without padding. An empty key means "from the table's first row".
 *
 * @param watermark the high watermark (an SCN) of the chunk that read {@code key}; 0 before the
 *     first
 * @param database the table's database (or schema)
 * @param table the table being copied
 * @param key the last key read, as a key image; empty before the table's first chunk
 */
public record SnapshotCursor(long watermark, String database, String table, byte[] key) {

    /** {@link StreamParameters#SNAPSHOT}: begin a snapshot of the request's subscription. */
    public static final String START = "start";

    /** {@link StreamResponse#SNAPSHOT}: the snapshot is complete; continue with the live stream. */
    public static final String COMPLETE = "complete";

    private static final String VERSION = "v1";

    public SnapshotCursor {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(key, "key");
        if (watermark < 0) {
            throw new IllegalArgumentException("snapshot watermark must be >= 0: " + watermark);
        }
    }

    /** The cursor at the start of a table: no key read yet. */
    public static SnapshotCursor startOf(String database, String table, long watermark) {
        return new SnapshotCursor(watermark, database, table, new byte[0]);
    }

    /** Whether no key of the table has been read yet. */
    public boolean atTableStart() {
        return key.length == 0;
    }

    /** The text form sent over the wire. */
    public String toText() {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        return VERSION
                + ":"
                + watermark
                + ":"
                + base64.encodeToString(database.getBytes(StandardCharsets.UTF_8))
                + ":"
                + base64.encodeToString(table.getBytes(StandardCharsets.UTF_8))
                + ":"
                + base64.encodeToString(key);
    }

    /**
     * Reads the text form.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static SnapshotCursor parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 5 || !parts[0].equals(VERSION)) {
            throw new IllegalArgumentException(
                    "not a snapshot cursor (v1:watermark:database:table:key): text=" + text);
        }
        try {
            Base64.Decoder base64 = Base64.getUrlDecoder();
            return new SnapshotCursor(
                    Long.parseLong(parts[1]),
                    new String(base64.decode(parts[2]), StandardCharsets.UTF_8),
                    new String(base64.decode(parts[3]), StandardCharsets.UTF_8),
                    base64.decode(parts[4]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "not a snapshot cursor (v1:watermark:database:table:key): text="
                            + text
                            + ", reason="
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SnapshotCursor other
                && watermark == other.watermark
                && database.equals(other.database)
                && table.equals(other.table)
                && Arrays.equals(key, other.key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(watermark, database, table) * 31 + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return toText();
    }
}
