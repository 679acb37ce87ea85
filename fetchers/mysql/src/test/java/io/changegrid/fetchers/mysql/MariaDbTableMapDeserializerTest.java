package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ColumnType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MariaDbTableMapDeserializerTest {

    private final MariaDbTableMapDeserializer reader = new MariaDbTableMapDeserializer();

    @Test
    void shouldAnswerTheSameObjectWhenATableMapRepeatsItsBytes() throws IOException {
        TableMapEventData first = reader.deserialize(in(body(42, "items", 15, 256)));
        TableMapEventData again = reader.deserialize(in(body(42, "items", 15, 256)));

        assertThat(again).isSameAs(first);
        assertThat(first.getTableId()).isEqualTo(42);
        assertThat(first.getDatabase()).isEqualTo("shop");
        assertThat(first.getTable()).isEqualTo("items");
        assertThat(first.getColumnMetadata()).containsExactly(0, 256);
    }

    @Test
    void shouldReadTheTableMapAgainWhenItsBytesChangeUnderTheSameTableId() throws IOException {
        TableMapEventData first = reader.deserialize(in(body(42, "items", 15, 256)));
        TableMapEventData widened = reader.deserialize(in(body(42, "items", 15, 1024)));
        TableMapEventData renamed = reader.deserialize(in(body(42, "goods", 15, 1024)));

        assertThat(widened).isNotSameAs(first);
        assertThat(widened.getColumnMetadata()).containsExactly(0, 1024);
        assertThat(renamed).isNotSameAs(widened);
        assertThat(renamed.getTable()).isEqualTo("goods");
        assertThat(reader.deserialize(in(body(7, "goods", 15, 1024))))
                .isNotSameAs(renamed)
                .extracting(TableMapEventData::getTableId)
                .isEqualTo(7L);
    }

    @Test
    void shouldRewriteACompressedColumnOnEveryReadWhenTheTableMapRepeats() throws IOException {
        int varcharCompressed = MariaDbTableMapDeserializer.VARCHAR_COMPRESSED;
        TableMapEventData first = reader.deserialize(in(body(9, "notes", varcharCompressed, 300)));
        TableMapEventData again = reader.deserialize(in(body(9, "notes", varcharCompressed, 300)));

        assertThat(again).isSameAs(first);
        assertThat(again.getColumnTypes()[1] & 0xFF).isEqualTo(ColumnType.VARCHAR.getCode());
        assertThat(again.getColumnMetadata()).containsExactly(0, 300);
    }

    private static ByteArrayInputStream in(byte[] body) {
        return new ByteArrayInputStream(body);
    }

    /**
     * A table map of {@code shop.<table>} with an INT column and a second column of {@code
     * secondType} (a VARCHAR layout: two bytes of metadata, its length), both nullable.
     */
    private static byte[] body(long tableId, String table, int secondType, int maxLength) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 6; i++) {
            out.write((int) (tableId >>> (8 * i)) & 0xFF);
        }
        out.write(1); // flags
        out.write(0);
        name(out, "shop");
        name(out, table);
        out.write(2); // columns
        out.write(ColumnType.LONG.getCode());
        out.write(secondType);
        out.write(2); // metadata length
        out.write(maxLength & 0xFF);
        out.write(maxLength >>> 8);
        out.write(0b11); // nullability
        return out.toByteArray();
    }

    private static void name(ByteArrayOutputStream out, String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        out.write(bytes.length);
        out.writeBytes(bytes);
        out.write(0);
    }
}
