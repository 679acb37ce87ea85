package io.changegrid.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SnapshotCursorTest {

    @Test
    void shouldReadBackEveryFieldWhenNamesHoldSeparators() {
        SnapshotCursor cursor =
                new SnapshotCursor(
                        (42L << 32) | 1234, "my:db", "order lines/ü", new byte[] {1, 0, -2});

        SnapshotCursor read = SnapshotCursor.parse(cursor.toText());

        assertThat(read).isEqualTo(cursor);
        assertThat(read.atTableStart()).isFalse();
    }

    @Test
    void shouldStartTheTableWhenTheKeyIsEmpty() {
        SnapshotCursor cursor = SnapshotCursor.startOf("shop", "orders", 0);

        assertThat(SnapshotCursor.parse(cursor.toText()).atTableStart()).isTrue();
    }

    @Test
    void shouldNameTheTextWhenItIsNoCursor() {
        assertThatThrownBy(() -> SnapshotCursor.parse("v2:1:a:b:c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("text=v2:1:a:b:c");
        assertThatThrownBy(() -> SnapshotCursor.parse("v1:x:a:b:c"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a snapshot cursor");
    }
}
