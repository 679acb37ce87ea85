package io.changegrid.fetchers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PgOutputDecoderTest {

    /** Writes handler calls as text, to compare with what a message should say. */
    private static final class Recorder implements PgOutputDecoder.Handler {
        final List<String> calls = new ArrayList<>();

        @Override
        public void begin(long finalLsn, long commitTimeMicros, int xid) {
            calls.add("begin " + new Lsn(finalLsn) + " " + commitTimeMicros + " " + xid);
        }

        @Override
        public void commit(long commitLsn, long endLsn, long commitTimeMicros) {
            calls.add("commit " + new Lsn(commitLsn) + " " + new Lsn(endLsn));
        }

        @Override
        public void relation(PgOutputDecoder.RelationMessage relation) {
            calls.add("relation " + relation);
        }

        @Override
        public void insert(int relationId, PgOutputDecoder.Tuple after) {
            calls.add("insert " + relationId + " " + Arrays.asList(after.values()));
        }

        @Override
        public void update(
                int relationId,
                PgOutputDecoder.Tuple before,
                boolean keyOnly,
                PgOutputDecoder.Tuple after) {
            calls.add(
                    "update "
                            + relationId
                            + " "
                            + keyOnly
                            + " "
                            + List.of(before.values())
                            + " unchanged="
                            + after.unchanged()[1]);
        }

        @Override
        public void delete(int relationId, PgOutputDecoder.Tuple before, boolean keyOnly) {
            calls.add("delete " + relationId + " " + keyOnly);
        }

        @Override
        public void truncate(int[] relationIds) {
            calls.add("truncate " + relationIds.length);
        }
    }

    @Test
    void shouldDecodeEveryMessageOfATransactionWhenWrittenAsTheProtocolSays() throws Exception {
        var recorder = new Recorder();
        var decoder = new PgOutputDecoder();
        decoder.decode(
                message(
                        out -> {
                            out.writeByte('B');
                            out.writeLong(0x1_0000_0010L);
                            out.writeLong(1_000_000L);
                            out.writeInt(742);
                        }),
                recorder);
        decoder.decode(
                message(
                        out -> {
                            out.writeByte('R');
                            out.writeInt(16384);
                            string(out, "shop");
                            string(out, "orders");
                            out.writeByte('f');
                            out.writeShort(2);
                            out.writeByte(1);
                            string(out, "id");
                            out.writeInt(23);
                            out.writeInt(-1);
                            out.writeByte(1);
                            string(out, "note");
                            out.writeInt(25);
                            out.writeInt(-1);
                        }),
                recorder);
        decoder.decode(
                message(
                        out -> {
                            out.writeByte('I');
                            out.writeInt(16384);
                            out.writeByte('N');
                            out.writeShort(2);
                            text(out, "7");
                            out.writeByte('n');
                        }),
                recorder);
        decoder.decode(
                message(
                        out -> {
                            out.writeByte('U');
                            out.writeInt(16384);
                            out.writeByte('O');
                            out.writeShort(2);
                            text(out, "7");
                            text(out, "ünï");
                            out.writeByte('N');
                            out.writeShort(2);
                            text(out, "8");
                            out.writeByte('u');
                        }),
                recorder);
        decoder.decode(
                message(
                        out -> {
                            out.writeByte('C');
                            out.writeByte(0);
                            out.writeLong(0x1_0000_0010L);
                            out.writeLong(0x1_0000_0040L);
                            out.writeLong(1_000_000L);
                        }),
                recorder);
        assertThat(recorder.calls)
                .containsExactly(
                        "begin 1/10 "
                                + (PgOutputDecoder.POSTGRES_EPOCH_MICROS + 1_000_000L)
                                + " 742",
                        "relation RelationMessage[relationId=16384, namespace=shop, name=orders, replicaIdentity=f,"
                                + " columns=[RelationColumn[flags=1, name=id, typeOid=23, typmod=-1],"
                                + " RelationColumn[flags=1, name=note, typeOid=25, typmod=-1]]]",
                        "insert 16384 [7, null]",
                        "update 16384 false [7, ünï] unchanged=true",
                        "commit 1/10 1/40");
    }

    @Test
    void shouldNameTheTagWhenAMessageIsUnknown() {
        assertThatThrownBy(
                        () ->
                                new PgOutputDecoder()
                                        .decode(message(out -> out.writeByte('Z')), new Recorder()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("type=Z");
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    /** A message at a non-zero offset of its buffer, as pgjdbc hands them. */
    private static ByteBuffer message(Writer writer) throws IOException {
        var bytes = new ByteArrayOutputStream();
        var out = new DataOutputStream(bytes);
        out.write(new byte[] {'w', 0, 0});
        writer.write(out);
        return ByteBuffer.wrap(bytes.toByteArray(), 3, bytes.size() - 3);
    }

    private static void string(DataOutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.writeByte(0);
    }

    private static void text(DataOutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeByte('t');
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
