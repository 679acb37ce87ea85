package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class FrameProjectionTest {

    private static final TableSchema CUSTOMERS =
            new TableSchema(
                    7,
                    2,
                    "shop",
                    "customers",
                    List.of(
                            Column.of("id", ValueType.INT64),
                            Column.of("name", ValueType.STRING),
                            Column.of("ssn", ValueType.STRING)),
                    List.of("id"));

    @Test
    void shouldWriteOnlyTheGrantedColumnsWhenProjecting() {
        EventFrame source =
                frame(
                        Operation.UPDATE,
                        new Object[] {1L, "Ada", "SSN-OLD-1"},
                        new Object[] {1L, "Ada L.", "SSN-NEW-2"});
        FrameProjection projection = FrameProjection.of(CUSTOMERS, Set.of("id", "name"));

        ExpandableBuffer out = new ExpandableBuffer(64);
        int length = projection.project(source, out, new ByteCursor(), new CRC32C());

        ByteBuffer bytes = out.byteBuffer();
        assertThat(length).isLessThanOrEqualTo(source.length());
        assertThat(FrameLayout.checkFrame(bytes, 0, length, new CRC32C())).isEqualTo(length);
        assertThat(text(bytes, length)).doesNotContain("SSN-");
        EventFrame projected = new EventFrame().wrap(bytes, 0);
        assertThat(projected.scn()).isEqualTo(source.scn());
        assertThat(projected.index()).isEqualTo(source.index());
        assertThat(projected.partitionHash()).isEqualTo(source.partitionHash());
        SchemaRegistry visible = new SchemaRegistry();
        visible.restore(projection.projected());
        ChangeEvent event = new ChangeEventDecoder(visible).decode(projected);
        assertThat(event.before()).containsExactly(1L, "Ada");
        assertThat(event.after()).containsExactly(1L, "Ada L.");
        assertThat(event.transactionId()).isEqualTo("tx-1");
    }

    @Test
    void shouldDropTheKeyAndItsHashWhenAKeyColumnIsHidden() {
        EventFrame source = frame(Operation.INSERT, null, new Object[] {42L, "Bob", "SSN-3"});
        FrameProjection projection = FrameProjection.of(CUSTOMERS, Set.of("name"));

        ExpandableBuffer out = new ExpandableBuffer(64);
        int length = projection.project(source, out, new ByteCursor(), new CRC32C());

        EventFrame projected = new EventFrame().wrap(out.byteBuffer(), 0);
        assertThat(projection.projected().hasKey()).isFalse();
        assertThat(projected.partitionHash()).isEqualTo(KeyHash.ofTableId(CUSTOMERS.tableId()));
        assertThat(projected.length()).isEqualTo(length);
    }

    @Test
    void shouldProjectNothingWhenNoColumnIsGranted() {
        assertThat(FrameProjection.of(CUSTOMERS, Set.of("salary"))).isNull();
        assertThat(FrameProjection.of(CUSTOMERS, Set.of("id", "name", "ssn")).isIdentity())
                .isTrue();
    }

    private static EventFrame frame(Operation op, Object[] before, Object[] after) {
        FrameEncoder encoder = new FrameEncoder(256);
        encoder.beginTransaction(1, 100, 5_000, "tx-1");
        int offset = encoder.appendRowChange(op, CUSTOMERS, before, after);
        encoder.endTransaction();
        return new EventFrame().wrap(encoder.buffer().byteBuffer(), offset);
    }

    private static String text(ByteBuffer bytes, int length) {
        byte[] copy = new byte[length];
        bytes.get(0, copy);
        return new String(copy, StandardCharsets.ISO_8859_1);
    }
}
