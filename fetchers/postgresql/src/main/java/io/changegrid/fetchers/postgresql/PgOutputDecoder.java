package io.changegrid.fetchers.postgresql;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads pgoutput protocol version 1 messages ("Logical Replication Message Formats" in the
 * PostgreSQL manual) straight from the replication stream's buffer and hands each to a {@link
 * Handler}: no message objects, only the values the handler needs. Big-endian, strings
 * NUL-terminated UTF-8, timestamps in microseconds since 2000-01-01.
 *
 * <pre>
 *   Begin     'B' finalLsn:int64 commitTime:int64 xid:int32
 *   Commit    'C' flags:int8 commitLsn:int64 endLsn:int64 commitTime:int64
 *   Origin    'O' lsn:int64 name:string
 *   Relation  'R' oid:int32 namespace:string name:string identity:int8 n:int16
 *                 (flags:int8 name:string typeOid:int32 typmod:int32){n}
 *   Type      'Y' oid:int32 namespace:string name:string
 *   Insert    'I' oid:int32 'N' tuple
 *   Update    'U' oid:int32 [('K'|'O') tuple] 'N' tuple
 *   Delete    'D' oid:int32 ('K'|'O') tuple
 *   Truncate  'T' n:int32 options:int8 oid:int32{n}
 *   tuple     n:int16 ('n' | 'u' | 't' length:int32 bytes){n}
 * </pre>
 *
 * <p>Threading: stateless; one instance per fetcher thread.
 */
final class PgOutputDecoder {

    /** Microseconds from the Unix epoch to PostgreSQL's, 2000-01-01. */
    static final long POSTGRES_EPOCH_MICROS = 946_684_800_000_000L;

    /** What the messages say, in stream order. */
    interface Handler {
        void begin(long finalLsn, long commitTimeMicros, int xid) throws InterruptedException;

        void commit(long commitLsn, long endLsn, long commitTimeMicros) throws InterruptedException;

        void relation(RelationMessage relation);

        void insert(int relationId, Tuple after);

        /** {@code before} is null when the server sent no old tuple; {@code keyOnly} for 'K'. */
        void update(int relationId, Tuple before, boolean keyOnly, Tuple after);

        void delete(int relationId, Tuple before, boolean keyOnly);

        void truncate(int[] relationIds);
    }

    /** One row image as text: a value per column, or null, or unchanged-TOAST. */
    record Tuple(String[] values, boolean[] unchanged) {}

    /** A column of a Relation message; flag bit 1 marks a replica-identity column. */
    record RelationColumn(int flags, String name, int typeOid, int typmod) {}

    /** A Relation message: a table's current shape as the decoder sees it. */
    record RelationMessage(
            int relationId,
            String namespace,
            String name,
            char replicaIdentity,
            List<RelationColumn> columns) {}

    /**
     * Decodes one message from the buffer's position to its limit.
     *
     * @throws IllegalArgumentException naming an unknown message or tuple tag
     */
    void decode(ByteBuffer buffer, Handler handler) throws InterruptedException {
        byte type = buffer.get();
        switch (type) {
            case 'B' -> {
                long finalLsn = buffer.getLong();
                long time = buffer.getLong() + POSTGRES_EPOCH_MICROS;
                handler.begin(finalLsn, time, buffer.getInt());
            }
            case 'C' -> {
                buffer.get(); // flags: unused in protocol 1
                long commitLsn = buffer.getLong();
                long endLsn = buffer.getLong();
                handler.commit(commitLsn, endLsn, buffer.getLong() + POSTGRES_EPOCH_MICROS);
            }
            case 'R' -> handler.relation(relation(buffer));
            case 'I' -> {
                int relationId = buffer.getInt();
                expect(buffer, 'N');
                handler.insert(relationId, tuple(buffer));
            }
            case 'U' -> {
                int relationId = buffer.getInt();
                byte tag = buffer.get();
                Tuple before = null;
                boolean keyOnly = tag == 'K';
                if (tag == 'K' || tag == 'O') {
                    before = tuple(buffer);
                    tag = buffer.get();
                }
                if (tag != 'N') {
                    throw new IllegalArgumentException(
                            "pgoutput update without a new tuple: tag=" + (char) tag);
                }
                handler.update(relationId, before, keyOnly, tuple(buffer));
            }
            case 'D' -> {
                int relationId = buffer.getInt();
                byte tag = buffer.get();
                if (tag != 'K' && tag != 'O') {
                    throw new IllegalArgumentException(
                            "pgoutput delete without an old tuple: tag=" + (char) tag);
                }
                handler.delete(relationId, tuple(buffer), tag == 'K');
            }
            case 'T' -> {
                int[] ids = new int[buffer.getInt()];
                buffer.get(); // options: CASCADE, RESTART IDENTITY
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = buffer.getInt();
                }
                handler.truncate(ids);
            }
            case 'O', 'Y', 'M' -> {
                // Origin (a replicated transaction's origin), Type (a user type's name; the catalog
                // is read by OID instead) and logical messages carry nothing for the timeline.
            }
            default ->
                    throw new IllegalArgumentException(
                            "unknown pgoutput message: type="
                                    + (char) type
                                    + " (0x"
                                    + Integer.toHexString(type & 0xFF)
                                    + ")");
        }
    }

    private static RelationMessage relation(ByteBuffer buffer) {
        int id = buffer.getInt();
        String namespace = string(buffer);
        String name = string(buffer);
        char identity = (char) buffer.get();
        int count = buffer.getShort() & 0xFFFF;
        List<RelationColumn> columns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int flags = buffer.get();
            String column = string(buffer);
            columns.add(new RelationColumn(flags, column, buffer.getInt(), buffer.getInt()));
        }
        // An empty namespace is pg_catalog's, as the protocol documents.
        return new RelationMessage(
                id, namespace.isEmpty() ? "pg_catalog" : namespace, name, identity, columns);
    }

    private static Tuple tuple(ByteBuffer buffer) {
        int count = buffer.getShort() & 0xFFFF;
        String[] values = new String[count];
        boolean[] unchanged = new boolean[count];
        for (int i = 0; i < count; i++) {
            byte kind = buffer.get();
            switch (kind) {
                case 'n' -> values[i] = null;
                case 'u' -> unchanged[i] = true;
                case 't' -> {
                    int length = buffer.getInt();
                    values[i] =
                            new String(
                                    buffer.array(),
                                    buffer.arrayOffset() + buffer.position(),
                                    length,
                                    StandardCharsets.UTF_8);
                    buffer.position(buffer.position() + length);
                }
                default ->
                        throw new IllegalArgumentException(
                                "unknown pgoutput tuple value kind: kind="
                                        + (char) kind
                                        + ", column="
                                        + i);
            }
        }
        return new Tuple(values, unchanged);
    }

    private static String string(ByteBuffer buffer) {
        int start = buffer.position();
        int end = start;
        while (buffer.get(end) != 0) {
            end++;
        }
        String text =
                new String(
                        buffer.array(),
                        buffer.arrayOffset() + start,
                        end - start,
                        StandardCharsets.UTF_8);
        buffer.position(end + 1);
        return text;
    }

    private static void expect(ByteBuffer buffer, char tag) {
        byte actual = buffer.get();
        if (actual != tag) {
            throw new IllegalArgumentException(
                    "unexpected pgoutput tuple tag: expected=" + tag + ", actual=" + (char) actual);
        }
    }
}
