package io.changegrid.consumer.sink;

import static io.changegrid.consumer.SampleStream.publish;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.MemoryCheckpointStore;
import io.changegrid.consumer.SampleStream;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.dispatch.Dispatcher;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.json.EventJsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonLinesFileCallbackTest {

    @TempDir Path directory;

    private static ConsumerConfig config() {
        return ConsumerConfig.of(
                Map.of(
                        "relays", "http://127.0.0.1:1",
                        "callback.retryBackoff", "1ms"));
    }

    @Test
    void shouldWriteEveryEventAsAJsonLineWhenBatchesEnd() throws Exception {
        Path file = directory.resolve("out/events.jsonl");
        ConsumerBuffer buffer = new ConsumerBuffer(64 << 10, 16);
        MemoryCheckpointStore store = new MemoryCheckpointStore();
        publish(
                buffer,
                new SampleStream()
                        .begin(100)
                        .insert(1, "ann", "1.00")
                        .insert(2, "bob", "2.00")
                        .commit()
                        .begin(200)
                        .update(1, "ann", "1.00", "1.50")
                        .delete(2, "bob", "2.00")
                        .commit()
                        .take(),
                200);
        buffer.finish();

        try (JsonLinesFileCallback callback = new JsonLinesFileCallback(file)) {
            new Dispatcher(config(), buffer, List.of(SampleStream.registry()), callback, store, -1)
                    .run();
            assertThat(callback.lines()).isEqualTo(4);
        }

        List<String> lines = Files.readAllLines(file);
        EventJsonReader reader = new EventJsonReader(SampleStream.registry());
        List<ChangeEvent> events = lines.stream().map(reader::read).toList();
        assertThat(events)
                .extracting(e -> e.operation() + " " + e.scn() + "/" + e.index())
                .containsExactly("INSERT 100/0", "INSERT 100/1", "UPDATE 200/0", "DELETE 200/1");
        assertThat(lines.get(2))
                .isEqualTo(
                        "{\"source\":1,\"scn\":200,\"index\":0,\"op\":\"UPDATE\",\"txn\":\"0-1-200\","
                                + "\"commitTime\":\"1970-01-01T00:00:01.000200Z\",\"db\":\"shop\",\"table\":\"orders\","
                                + "\"tableId\":1,\"schemaVersion\":1,\"key\":{\"id\":1},"
                                + "\"before\":{\"id\":1,\"customer\":\"ann\",\"total\":\"1.00\"},"
                                + "\"after\":{\"id\":1,\"customer\":\"ann\",\"total\":\"1.50\"}}");
        assertThat(store.scn()).isEqualTo(200);
    }

    @Test
    void shouldCutOffARolledBackBatchWhenItIsDeliveredAgain() throws Exception {
        Path file = directory.resolve("events.jsonl");
        Files.writeString(file, "{\"earlier\":true}\n");
        ConsumerBuffer buffer = new ConsumerBuffer(64 << 10, 16);
        publish(buffer, new SampleStream().order(100, 1).order(200, 2).take(), 200);
        buffer.finish();

        try (JsonLinesFileCallback jsonl = new JsonLinesFileCallback(file)) {
            boolean[] retried = {false};
            var callback =
                    new io.changegrid.consumer.api.ConsumerCallback() {
                        @Override
                        public CallbackResult onStartBatch() {
                            return jsonl.onStartBatch();
                        }

                        @Override
                        public CallbackResult onEvent(EventView event) {
                            CallbackResult result = jsonl.onEvent(event);
                            if (event.scn() == 200 && !retried[0]) {
                                retried[0] = true;
                                return CallbackResult.RETRY; // after its line was written
                            }
                            return result;
                        }

                        @Override
                        public CallbackResult onEndBatch(long checkpointScn) {
                            return jsonl.onEndBatch(checkpointScn);
                        }

                        @Override
                        public void onRollback(long checkpointScn) {
                            jsonl.onRollback(checkpointScn);
                        }
                    };
            new Dispatcher(
                            config(),
                            buffer,
                            List.of(SampleStream.registry()),
                            callback,
                            new MemoryCheckpointStore(),
                            -1)
                    .run();
        }

        assertThat(Files.readAllLines(file)).hasSize(3).first().isEqualTo("{\"earlier\":true}");
        assertThat(Files.readAllLines(file).get(1)).contains("\"scn\":100");
        assertThat(Files.readAllLines(file).get(2)).contains("\"scn\":200");
    }
}
