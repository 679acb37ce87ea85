package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyImagesTest {

    private final TableSchema lines =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "lines",
                    List.of(
                            Column.of("note", ValueType.STRING),
                            Column.of("order_id", ValueType.INT64),
                            Column.of("sku", ValueType.STRING)),
                    List.of("order_id", "sku"));

    @Test
    void shouldReadBackTheKeyValuesInKeyOrderWhenARowsKeyIsImaged() {
        byte[] image = KeyImages.ofRow(lines, new Object[] {"x", 42L, "sku-7"});

        assertThat(KeyImages.read(lines, image)).containsExactly(42L, "sku-7");
    }

    @Test
    void shouldRefuseAnImageLongerThanItsKeyWhenRead() {
        byte[] image = KeyImages.ofRow(lines, new Object[] {"x", 42L, "sku-7"});
        byte[] longer = java.util.Arrays.copyOf(image, image.length + 1);

        assertThatThrownBy(() -> KeyImages.read(lines, longer))
                .isInstanceOf(CorruptFrameException.class)
                .hasMessageContaining("table=shop.lines");
    }
}
