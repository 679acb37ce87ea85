package io.changegrid.relay.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PositionStoreTest {

    @TempDir Path directory;

    @Test
    void shouldBeEmptyWhenTheRelayNeverPublished() {
        assertThat(new PositionStore(directory).load()).isEmpty();
    }

    @Test
    void shouldReadBackTheLastSavedPosition() {
        PositionStore store = new PositionStore(directory.resolve("state"));
        store.save(42L, "mysql-bin.000001:120");
        store.save(4294967396L, "mysql-bin.000001:4660");

        assertThat(new PositionStore(directory.resolve("state")).load())
                .contains(new PositionStore.SavedPosition(4294967396L, "mysql-bin.000001:4660"));
        assertThat(directory.resolve("state/position.tmp")).doesNotExist();
    }

    @Test
    void shouldNameTheFileWhenItsContentIsNotAPosition() throws Exception {
        Files.writeString(directory.resolve("position"), "garbage");

        assertThatThrownBy(() -> new PositionStore(directory).load())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(
                        "position file is not a relay position: file="
                                + directory.resolve("position"));
    }
}
