package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.config.Config;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.checkpoint.FileCheckpointStore;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.group.config.GroupSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer run alone with {@code cluster.status.port} serves the member's endpoint: its stream as
 * partition 0 of group {@code standalone}, and its meters, callback time and bytes included.
 */
class StandaloneEndpointTest {

    @TempDir Path dir;

    @Test
    void shouldServeTheConsumersMetersAndStatusWhenAStatusPortIsSet() throws Exception {
        Config config =
                GroupSettings.SCHEMA.load(
                        Map.of(),
                        Map.of(
                                // Nobody answers there: the consumer runs and retries.
                                "relays", "http://127.0.0.1:9",
                                "cluster.status.port", "0",
                                "checkpoint.file", dir.resolve("checkpoint").toString()));
        ConsumerCallback callback = event -> CallbackResult.SUCCESS;
        Consumer consumer =
                Consumer.create(
                        "consumer",
                        ConsumerConfig.from(config, List.of()),
                        callback,
                        new FileCheckpointStore(dir.resolve("checkpoint")));
        consumer.start();
        try (StandaloneEndpoint endpoint =
                StandaloneEndpoint.start(config, "consumer", consumer, callback)) {
            HttpClient http = HttpClient.newHttpClient();
            String metrics = get(http, endpoint.url() + "/metrics");
            assertThat(metrics)
                    .contains(
                            "changegrid_consumer_callback_seconds_total{group=\"standalone\",partition=\"0\"}")
                    .contains("changegrid_consumer_delivered_bytes_total{group=\"standalone\"")
                    .contains("changegrid_consumer_pulled_bytes_total{group=\"standalone\"")
                    .contains("changegrid_consumer_buffer_capacity_bytes{group=\"standalone\"")
                    .contains("jvm_memory_used_bytes");
            assertThat(get(http, endpoint.url() + "/v1/status"))
                    .contains("\"group\":\"standalone\"")
                    .contains("\"partition\":0");
        } finally {
            consumer.stop();
            consumer.awaitTermination();
        }
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
