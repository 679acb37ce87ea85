package io.changegrid.consumer.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.ConfigException;
import io.changegrid.consumer.Consumer;
import io.changegrid.consumer.MemoryCheckpointStore;
import io.changegrid.consumer.api.CallbackResult;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsumerConfigTest {

    @Test
    void shouldAcceptHttpsRelaysWithATokenWhenGiven() {
        ConsumerConfig config =
                ConsumerConfig.of(
                        Map.of("relays", List.of("https://r1:7443"), "relay.token", "t0ken"));

        assertThat(config.relays()).containsExactly(URI.create("https://r1:7443/"));
        assertThat(config.credentials().bearerToken()).isEqualTo("t0ken");
        assertThat(config.credentials().tls().hasKey()).isFalse();
    }

    @Test
    void shouldUseTheDefaultsWhenOnlyRelaysAreGiven() {
        ConsumerConfig config =
                ConsumerConfig.of(Map.of("relays", List.of("http://r1:7070", "http://r2:7070/")));

        assertThat(config.relays())
                .containsExactly(URI.create("http://r1:7070/"), URI.create("http://r2:7070/"));
        assertThat(config.subscription()).isEqualTo(Subscription.all());
        assertThat(config.bufferCapacity()).isEqualTo(32 << 20);
        assertThat(config.fetchMaxBytes()).isEqualTo(1 << 20);
        assertThat(config.pollTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.stallTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.batchMaxTransactions()).isEqualTo(100);
        assertThat(config.batchMaxWait()).isZero();
        assertThat(config.retryLimit()).isZero();
    }

    @Test
    void shouldReportEveryProblemWithItsKeyWhenTheBuilderIsGivenBadSettings() {
        Consumer.Builder builder =
                Consumer.builder()
                        .relays("ftp://relay1", "http://relay2:7070")
                        .subscription(Subscription.tables("shop").partition(4, 4))
                        .bufferCapacity(1024)
                        .batching(0, Duration.ofMillis(5));

        assertThatThrownBy(builder::build)
                .isInstanceOf(ConfigException.class)
                .satisfies(
                        e ->
                                assertThat(((ConfigException) e).problems())
                                        .containsExactlyInAnyOrder(
                                                "missing: callback (Consumer.Builder.callback)",
                                                "missing: checkpoint store (Consumer.Builder.checkpointStore)",
                                                "bad value: path=relays, value=[ftp://relay1, http://relay2:7070]:"
                                                        + " must be one or more http(s)://host:port URLs",
                                                "bad value: path=subscription.tables, value=[shop]: must be"
                                                        + " database.table patterns without commas",
                                                "bad value: path=buffer.capacity, value=1KiB: must be 64KiB..1GiB",
                                                "bad value: path=batch.maxTransactions, value=0: must be at least 1"));
    }

    @Test
    void shouldReportRulesThatSpanKeysWhenEachValueIsValid() {
        assertThatThrownBy(
                        () ->
                                ConsumerConfig.of(
                                        Map.of(
                                                "relays", "http://r1:7070",
                                                "subscription.partition", 4,
                                                "subscription.partitions", 4,
                                                "buffer.capacity", "64KiB",
                                                "fetch.maxBytes", "1MiB",
                                                "callback.retryBackoff", "2s",
                                                "callback.retryBackoffMax", "1s")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "bad value: path=subscription.partition, value=4: must be below subscription.partitions=4")
                .hasMessageContaining(
                        "bad value: path=fetch.maxBytes, value=1048576: must not exceed buffer.capacity=65536")
                .hasMessageContaining(
                        "bad value: path=callback.retryBackoffMax, value=1s: must be at least callback.retryBackoff=2s");
    }

    @Test
    void shouldBuildAConsumerWhenEverythingIsGiven() {
        Consumer consumer =
                Consumer.builder()
                        .relays("http://relay1:7070")
                        .subscription(Subscription.tables("shop.*").partition(1, 4))
                        .bufferCapacity(1 << 20)
                        .fetchMaxBytes(256 << 10)
                        .pollTimeout(Duration.ofSeconds(2))
                        .batching(10, Duration.ofMillis(5))
                        .retryBackoff(Duration.ofMillis(10), Duration.ofSeconds(1))
                        .callback(event -> CallbackResult.SUCCESS)
                        .checkpointStore(new MemoryCheckpointStore())
                        .build();

        assertThat(consumer.config().subscription())
                .isEqualTo(new Subscription(List.of("shop.*"), 1, 4));
        assertThat(consumer.config().bufferCapacity()).isEqualTo(1 << 20);
        assertThat(consumer.config().fetchMaxBytes()).isEqualTo(256 << 10);
        assertThat(consumer.config().batchMaxWait()).isEqualTo(Duration.ofMillis(5));
        consumer.close();
    }

    @Test
    void shouldDoubleTheBackoffUpToItsMaximum() {
        Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(45));

        assertThat(backoff.delayNanos(1)).isEqualTo(Duration.ofMillis(10).toNanos());
        assertThat(backoff.delayNanos(2)).isEqualTo(Duration.ofMillis(20).toNanos());
        assertThat(backoff.delayNanos(3)).isEqualTo(Duration.ofMillis(40).toNanos());
        assertThat(backoff.delayNanos(4)).isEqualTo(Duration.ofMillis(45).toNanos());
        assertThat(backoff.delayNanos(1000)).isEqualTo(Duration.ofMillis(45).toNanos());
    }
}
