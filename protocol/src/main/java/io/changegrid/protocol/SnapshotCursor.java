package io.changegrid.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

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
 * <p><b>Where a table's copy begins</b> (the one thing a consumer reads in a cursor): a request
 * sent with a cursor at a table's start ({@link #atTableStart()}) whose answer moves the cursor
 * carries that table's first chunk (or the table had no row to copy). {@link #begunTable} says so.
 * A relay answers {@link #START} with the first table's start cursor and no chunk, so that every
 * table's copy begins with a request that names it: a consumer that must empty a target table
 * before its copy (docs/bootstrap.md, "Re-seeding") does it before anything of that answer, the
 * live transactions of the chunk's window included.
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

    /**
     * The table whose copy the answer to a request sent with {@code sent} begins, if it begins one:
     * {@code sent} is a cursor at a table's start and the answer's cursor {@code after} (a cursor
     * or {@link #COMPLETE}) differs from it. An answer that echoes the cursor (the consumer was not
     * caught up, or the chunk was discarded) begins nothing: the next one will.
     *
     * @param sent the {@link StreamParameters#SNAPSHOT} sent, or null
     * @param after the {@link StreamResponse#SNAPSHOT} answered, or null
     */
    public static Optional<SnapshotCursor> begunTable(String sent, String after) {
        if (sent == null || sent.equals(START) || sent.equals(after)) {
            return Optional.empty();
        }
        SnapshotCursor cursor = parse(sent);
        return cursor.atTableStart() ? Optional.of(cursor) : Optional.empty();
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
