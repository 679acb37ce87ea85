package io.changegrid.consumer.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.consumer.example.OrderTotalsCallback;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallbackLoaderTest {

    @TempDir Path directory;

    private Config config(String type) {
        return ConsumerSettings.SCHEMA.load(
                Map.of(),
                Map.of(
                        "relays",
                        "http://127.0.0.1:7070",
                        "callback.type",
                        type,
                        "callback.jsonl.file",
                        directory.resolve("e.jsonl").toString()));
    }

    @Test
    void shouldMakeTheBuiltInCallbacksWhenNamed() throws Exception {
        ConsumerCallback jsonl = CallbackLoader.load(config("jsonl"));
        assertThat(jsonl).isInstanceOf(JsonLinesFileCallback.class);
        ((JsonLinesFileCallback) jsonl).close();
        assertThat(CallbackLoader.load(config("count"))).isInstanceOf(CountingCallback.class);
    }

    @Test
    void shouldMakeAUserCallbackWhenGivenItsClassName() throws Exception {
        assertThat(CallbackLoader.load(config(OrderTotalsCallback.class.getName())))
                .isInstanceOf(OrderTotalsCallback.class);
    }

    @Test
    void shouldNameTheKeyWhenTheClassIsNoCallback() {
        assertThatThrownBy(() -> CallbackLoader.load(config("java.lang.String")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "bad value: path=callback.type, value=java.lang.String: does not implement"
                                + " io.changegrid.consumer.api.ConsumerCallback");
        assertThatThrownBy(() -> CallbackLoader.load(config("com.example.Missing")))
                .hasMessageContaining(
                        "bad value: path=callback.type, value=com.example.Missing: no such class");
    }
}
