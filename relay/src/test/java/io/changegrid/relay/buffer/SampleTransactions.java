package io.changegrid.relay.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * Realistic entries for buffer tests, encoded by the real {@link FrameEncoder}: transactions of
 * inserts into {@code shop.orders(id bigint primary key, payload varchar)} whose key is {@code scn
 * * 1000 + index}, and heartbeats. Random payloads come from a seeded {@link Random}.
 *
 * <p>Not thread-safe: each thread builds its own.
 */
final class SampleTransactions {

    static final int SOURCE_ID = 7;
    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

    private final TableSchema schema;
    private final FrameEncoder encoder = new FrameEncoder(64 * 1024);
    private final Random random;
    private final String text;

    SampleTransactions(long seed) {
        this.random = new Random(seed);
        // Payloads are cut from one random text: a character at a time would cost more than the
        // rest of a test.
        char[] chars = new char[128 * 1024];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        this.text = new String(chars);
        this.schema =
                new SchemaRegistry()
                        .register(
                                "shop",
                                "orders",
                                List.of(
                                        new Column("id", ValueType.INT64, "bigint", false, 0),
                                        new Column(
                                                "payload",
                                                ValueType.STRING,
                                                "varchar(65535)",
                                                true,
                                                0)),
                                List.of("id"));
    }

    /**
     * A transaction of {@code events} inserts with {@code payloadBytes} of text each, in the
     * encoder's buffer from offset 0 to {@link #length()}.
     */
    ByteBuffer transaction(long scn, int events, int payloadBytes) {
        encoder.buffer().clear();
        encoder.beginTransaction(SOURCE_ID, scn, scn * 10, "0-1-" + scn);
        for (int i = 0; i < events; i++) {
            Object[] row = {scn * 1000 + i, text(payloadBytes)};
            encoder.appendRowChange(Operation.INSERT, schema, null, row);
        }
        encoder.endTransaction();
        return encoder.buffer().byteBuffer();
    }

    /** A transaction of exactly {@code bytes} bytes, of one or more inserts. */
    ByteBuffer transactionOfLength(long scn, int bytes) {
        int events = Math.max(1, bytes / 2000);
        transaction(scn, events, 100);
        // Grow the last event's payload by what is missing; re-measure, as the length prefix of
        // the text may grow by a byte or two, and settle on a payload that hits the length.
        int payload = 100 + bytes - length();
        for (int attempt = 0; attempt < 4 && length() != bytes; attempt++) {
            encodeWithLastPayload(scn, events, payload);
            payload += bytes - length();
        }
        assertThat(length()).as("transaction of exact length").isEqualTo(bytes);
        return encoder.buffer().byteBuffer();
    }

    private void encodeWithLastPayload(long scn, int events, int lastPayload) {
        encoder.buffer().clear();
        encoder.beginTransaction(SOURCE_ID, scn, scn * 10, "0-1-" + scn);
        for (int i = 0; i < events; i++) {
            Object[] row = {scn * 1000 + i, text(i == events - 1 ? lastPayload : 100)};
            encoder.appendRowChange(Operation.INSERT, schema, null, row);
        }
        encoder.endTransaction();
    }

    /** Where {@link #inParts} hands each part; returns a tail position or a buffer error code. */
    interface PartTarget {
        long part(ByteBuffer frames, int length, boolean last, int totalEvents);
    }

    /**
     * Appends a transaction of {@code parts} parts of {@code eventsPerPart} inserts each, all but
     * the last through {@link EventBuffer#appendPart}; returns what the last append returned (the
     * tail, or an error code) and stops at the first error code.
     */
    long appendInParts(
            EventBuffer buffer, long scn, int parts, int eventsPerPart, int payloadBytes) {
        return inParts(
                scn,
                parts,
                eventsPerPart,
                payloadBytes,
                (frames, length, last, events) ->
                        last
                                ? buffer.appendEncoded(scn, frames, 0, length, false)
                                : buffer.appendPart(scn, frames, 0, length));
    }

    /** Encodes a transaction in parts as {@link #appendInParts} does, handing each to a target. */
    long inParts(long scn, int parts, int eventsPerPart, int payloadBytes, PartTarget target) {
        encoder.buffer().clear();
        encoder.beginTransaction(SOURCE_ID, scn, scn * 10, "0-1-" + scn);
        long result = 0;
        for (int part = 0; part < parts; part++) {
            for (int i = 0; i < eventsPerPart; i++) {
                Object[] row = {scn * 1000 + part * eventsPerPart + i, text(payloadBytes)};
                encoder.appendRowChange(Operation.INSERT, schema, null, row);
            }
            boolean last = part == parts - 1;
            if (last) {
                encoder.endTransaction();
            } else {
                encoder.endPart();
            }
            result =
                    target.part(
                            encoder.buffer().byteBuffer(), length(), last, parts * eventsPerPart);
            if (result < 0) {
                if (!last) {
                    encoder.abortTransaction(0);
                }
                return result;
            }
            encoder.buffer().clear();
        }
        return result;
    }

    /** A heartbeat frame in the encoder's buffer from offset 0 to {@link #length()}. */
    ByteBuffer heartbeat(long scn) {
        encoder.buffer().clear();
        encoder.appendHeartbeat(SOURCE_ID, scn, scn * 10);
        return encoder.buffer().byteBuffer();
    }

    /** The length of the entry last built. */
    int length() {
        return encoder.buffer().position();
    }

    /** Appends a transaction of {@code events} inserts and returns its length. */
    int append(EventBuffer buffer, long scn, int events, int payloadBytes) {
        ByteBuffer frames = transaction(scn, events, payloadBytes);
        assertThat(buffer.append(scn, frames, 0, length())).isPositive();
        return length();
    }

    /** Appends a heartbeat and returns its length. */
    int appendHeartbeat(EventBuffer buffer, long scn) {
        ByteBuffer frame = heartbeat(scn);
        assertThat(buffer.append(scn, frame, 0, length())).isPositive();
        return length();
    }

    private String text(int bytes) {
        int from = random.nextInt(text.length() - bytes + 1);
        return text.substring(from, from + bytes);
    }

    /** One entry found in bytes a reader copied. */
    record Entry(long scn, boolean heartbeat, int events, int length) {}

    /**
     * Splits {@code [offset, limit)} into entries, checking every frame with {@link
     * FrameLayout#checkFrame} (bounds, CRC32C, header) and that each entry is whole: same SCN
     * throughout, indexes counting from 0, closed by END_OF_TRANSACTION counting its events, or a
     * lone heartbeat.
     */
    static List<Entry> entries(ByteBuffer destination, int offset, int limit) {
        ByteBuffer bytes = destination.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        List<Entry> entries = new ArrayList<>();
        CRC32C crc = new CRC32C();
        EventFrame frame = new EventFrame();
        int at = offset;
        while (at < limit) {
            int start = at;
            int events = 0;
            long scn = frame.wrap(bytes, at).scn();
            while (true) {
                int length = FrameLayout.checkFrame(bytes, at, limit, crc);
                frame.wrap(bytes, at);
                assertThat(frame.scn()).as("SCN of frame at %d", at).isEqualTo(scn);
                at += length;
                Operation op = frame.operation();
                if (op == Operation.HEARTBEAT) {
                    assertThat(events).as("heartbeat alone at %d", start).isZero();
                    entries.add(new Entry(scn, true, 0, at - start));
                    break;
                }
                assertThat(frame.index())
                        .as("index of frame at %d", frame.offset())
                        .isEqualTo(events);
                if (op == Operation.END_OF_TRANSACTION) {
                    entries.add(new Entry(scn, false, events, at - start));
                    break;
                }
                assertThat(frame.tableId()).isPositive();
                events++;
            }
        }
        assertThat(at).isEqualTo(limit);
        return entries;
    }
}
