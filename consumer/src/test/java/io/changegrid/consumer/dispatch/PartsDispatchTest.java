package io.changegrid.consumer.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.MemoryCheckpointStore;
import io.changegrid.consumer.SampleStream;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Transactions in parts through the dispatcher: one transaction to the callback, in a batch of its
 * own, no checkpoint inside, parts' entries released as delivered, and a start over when an entry
 * begins it again or a rollback needs parts already released.
 */
class PartsDispatchTest {

    private final ConsumerBuffer buffer = new ConsumerBuffer(64 << 10, 64);
    private final MemoryCheckpointStore store = new MemoryCheckpointStore();
    private final SampleStream stream = new SampleStream();
    private Dispatcher dispatcher;
    private Thread thread;

    @AfterEach
    void stopDispatcher() throws InterruptedException {
        if (dispatcher != null) {
            dispatcher.stop();
            thread.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(thread.isAlive()).as("dispatcher thread ended").isFalse();
        }
    }

    private void start(RecordingCallback callback) {
        ConsumerConfig config =
                ConsumerConfig.of(
                        Map.of(
                                "relays", List.of("http://127.0.0.1:1"),
                                "batch.maxTransactions", 10,
                                "batch.maxWait", "0ms",
                                "callback.retryBackoff", "1ms",
                                "callback.retryBackoffMax", "5ms"));
        dispatcher =
                new Dispatcher(
                        config, buffer, List.of(SampleStream.registry()), callback, store, 99);
        thread = new Thread(dispatcher, "test-dispatcher");
        thread.start();
    }

    private void awaitCall(RecordingCallback callback, String call) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> callback.calls.contains(call) || dispatcher.failure() != null);
        assertThat(dispatcher.failure()).isNull();
    }

    @Test
    void shouldDeliverPartsAsOneTransactionInABatchOfItsOwnWhenTheyComeInEntries()
            throws Exception {
        RecordingCallback callback = new RecordingCallback();
        start(callback);
        SampleStream.publish(
                buffer,
                stream.order(100, 1).begin(200).insert(2, "b", "1.00").part().take(),
                100,
                0);
        awaitCall(callback, "event 200/0 INSERT id=2");
        assertThat(store.saves()).as("the batch before it was checkpointed").containsExactly(100L);
        // The part was delivered: its entry is freed while the transaction is still open.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> buffer.usedBytes() == 0);
        assertThat(store.saves()).containsExactly(100L);
        SampleStream.publish(buffer, stream.insert(3, "c", "1.00").part().take(), 100, 1);
        awaitCall(callback, "event 200/1 INSERT id=3");
        SampleStream.publish(
                buffer, stream.insert(4, "d", "1.00").commit().order(300, 5).take(), 300, 2);
        awaitCall(callback, "end 300");

        assertThat(callback.calls)
                .containsExactly(
                        "startBatch",
                        "start 100",
                        "event 100/0 INSERT id=1",
                        "end 100",
                        "endBatch 100",
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "event 200/1 INSERT id=3",
                        "event 200/2 INSERT id=4",
                        "end 200",
                        "endBatch 200",
                        "startBatch",
                        "start 300",
                        "event 300/0 INSERT id=5",
                        "end 300",
                        "endBatch 300");
        assertThat(store.saves()).containsExactly(100L, 200L, 300L);
    }

    @Test
    void shouldRollBackAndDeliverFromTheStartWhenAnEntryStartsTheTransactionOver()
            throws Exception {
        RecordingCallback callback = new RecordingCallback();
        start(callback);
        SampleStream.publish(buffer, stream.begin(200).insert(2, "b", "1.00").part().take(), 99, 0);
        awaitCall(callback, "event 200/0 INSERT id=2");
        // Another relay, asked afresh: the transaction from its first event.
        SampleStream again = new SampleStream();
        SampleStream.publish(
                buffer,
                again.begin(200)
                        .insert(2, "b", "1.00")
                        .part()
                        .insert(3, "c", "1.00")
                        .commit()
                        .take(),
                200,
                0);
        awaitCall(callback, "endBatch 200");

        assertThat(callback.calls)
                .containsExactly(
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "rollback 99",
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "event 200/1 INSERT id=3",
                        "end 200",
                        "endBatch 200");
        assertThat(store.saves()).containsExactly(200L);
    }

    @Test
    void shouldAskToFetchAgainWhenARetryComesAfterPartsLeftTheBuffer() throws Exception {
        RecordingCallback callback =
                new RecordingCallback() {
                    boolean retried;

                    @Override
                    CallbackResult answer(String call) {
                        if (call.equals("event 200/1 INSERT id=3") && !retried) {
                            retried = true;
                            return CallbackResult.RETRY;
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        start(callback);
        SampleStream.publish(buffer, stream.begin(200).insert(2, "b", "1.00").part().take(), 99, 0);
        SampleStream.publish(buffer, stream.insert(3, "c", "1.00").part().take(), 99, 1);
        awaitCall(callback, "rollback 99");
        ConsumerBuffer.Restart restart =
                Awaitility.await()
                        .atMost(Duration.ofSeconds(10))
                        .until(buffer::takeRestart, r -> r != null);
        assertThat(restart.scn()).isEqualTo(99);
        // An entry fetched before the restart is skipped; the one after starts over.
        SampleStream.publish(buffer, stream.insert(4, "d", "1.00").commit().take(), 200, 2);
        SampleStream again = new SampleStream();
        byte[] whole =
                again.begin(200)
                        .insert(2, "b", "1.00")
                        .part()
                        .insert(3, "c", "1.00")
                        .part()
                        .insert(4, "d", "1.00")
                        .commit()
                        .take();
        int offset = buffer.claim(whole.length);
        System.arraycopy(whole, 0, buffer.bytes(), offset, whole.length);
        buffer.publish(whole.length, 200, 0, null, 0, restart.epoch(), null);
        awaitCall(callback, "endBatch 200");

        assertThat(callback.calls(("event")))
                .containsExactly(
                        "event 200/0 INSERT id=2",
                        "event 200/1 INSERT id=3",
                        "event 200/0 INSERT id=2",
                        "event 200/1 INSERT id=3",
                        "event 200/2 INSERT id=4");
        assertThat(store.saves()).containsExactly(200L);
    }
}
