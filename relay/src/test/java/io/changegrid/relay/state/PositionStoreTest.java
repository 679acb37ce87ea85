package io.changegrid.relay.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PositionStoreTest {

    @TempDir Path directory;

    @Test
    void shouldBeEmptyWhenTheRelayNeverPublished() {
        try (PositionStore store = new PositionStore(directory)) {
            assertThat(store.load()).isEmpty();
        }
    }

    @Test
    void shouldReadBackTheLastSavedReplayPointAfterReopening() {
        try (PositionStore store = new PositionStore(directory.resolve("state"))) {
            for (int i = 1; i <= 1001; i++) {
                store.save(100L + i, 50L + i, "binlog.000001:" + (4 + i));
            }
        }
        try (PositionStore reopened = new PositionStore(directory.resolve("state"))) {
            assertThat(reopened.load())
                    .contains(new PositionStore.SavedPosition(1101L, 1051L, "binlog.000001:1005"));
            reopened.save(2000L, 1999L, "binlog.000002:4");
            assertThat(reopened.load())
                    .contains(new PositionStore.SavedPosition(2000L, 1999L, "binlog.000002:4"));
        }
    }

    @Test
    void shouldFallBackToThePreviousSaveWhenTheLatestWasTornByACrash() throws Exception {
        try (PositionStore store = new PositionStore(directory)) {
            store.save(10L, 9L, "binlog.000001:100");
            store.save(20L, 19L, "binlog.000001:200");
        }
        // Tear the newer slot (sequence 2 lives in slot 0): damage a byte of its position.
        try (RandomAccessFile raw =
                new RandomAccessFile(directory.resolve("position").toFile(), "rw")) {
            raw.seek(30);
            raw.write('X');
        }
        try (PositionStore store = new PositionStore(directory)) {
            assertThat(store.load())
                    .contains(new PositionStore.SavedPosition(10L, 9L, "binlog.000001:100"));
        }
    }

    @Test
    void shouldRefuseToLoadWhenBothSlotsAreCorrupt() throws Exception {
        try (PositionStore store = new PositionStore(directory)) {
            store.save(10L, 9L, "binlog.000001:100");
            store.save(20L, 19L, "binlog.000001:200");
        }
        Path file = directory.resolve("position");
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(30);
            raw.write('X');
            raw.seek(PositionStore.SLOT_BYTES + 30);
            raw.write('Y');
        }
        try (PositionStore store = new PositionStore(directory)) {
            assertThatThrownBy(store::load)
                    .isInstanceOf(CorruptPositionFileException.class)
                    .hasMessageContaining("file=" + file)
                    .hasMessageContaining("delete the whole state directory");
        }
    }

    @Test
    void shouldRefuseToLoadWhenTheOnlySaveIsCorrupt() throws Exception {
        try (PositionStore store = new PositionStore(directory)) {
            store.save(10L, 9L, "binlog.000001:100");
        }
        try (RandomAccessFile raw =
                new RandomAccessFile(directory.resolve("position").toFile(), "rw")) {
            raw.seek(PositionStore.SLOT_BYTES + 8);
            raw.write(0x7F);
        }
        try (PositionStore store = new PositionStore(directory)) {
            assertThatThrownBy(store::load).isInstanceOf(CorruptPositionFileException.class);
        }
    }
}
