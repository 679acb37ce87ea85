package io.changegrid.consumer.dispatch;

import static io.changegrid.consumer.SampleStream.publish;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.MemoryCheckpointStore;
import io.changegrid.consumer.SampleStream;
import io.changegrid.consumer.api.CallbackFailedException;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.ConsumerException;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.events.Operation;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DispatcherTest {

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

    private static ConsumerConfig config(int maxTransactions, Duration maxWait, int retryLimit) {
        return ConsumerConfig.of(
                Map.of(
                        "relays",
                        List.of("http://127.0.0.1:1"),
                        "batch.maxTransactions",
                        maxTransactions,
                        "batch.maxWait",
                        maxWait.toMillis() + "ms",
                        "callback.retryBackoff",
                        "1ms",
                        "callback.retryBackoffMax",
                        "5ms",
                        "callback.retryLimit",
                        retryLimit));
    }

    private void start(ConsumerCallback callback, ConsumerConfig config, long startScn) {
        start(callback, config, startScn, DeliveryGate.ALWAYS_OPEN);
    }

    private void start(
            ConsumerCallback callback, ConsumerConfig config, long startScn, DeliveryGate gate) {
        dispatcher =
                new Dispatcher(
                        config,
                        buffer,
                        List.of(SampleStream.registry()),
                        callback,
                        store,
                        startScn,
                        gate);
        thread = new Thread(dispatcher, "test-dispatcher");
        thread.start();
    }

    private void start(ConsumerCallback callback, int maxTransactions) {
        start(callback, config(maxTransactions, Duration.ZERO, 0), -1);
    }

    private void awaitCheckpoint(long scn) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> store.scn() >= scn || dispatcher.failure() != null);
        assertThat(dispatcher.failure()).isNull();
    }

    private void awaitEnd() throws InterruptedException {
        thread.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(thread.isAlive()).isFalse();
    }

    @Test
    void shouldDeliverWholeTransactionsInCommitOrderWhenAnEntryArrives() throws Exception {
        RecordingCallback callback = new RecordingCallback();
        start(callback, 100);

        publish(
                buffer,
                stream.begin(100)
                        .insert(1, "ann", "1.00")
                        .insert(2, "bob", "2.00")
                        .commit()
                        .begin(200)
                        .update(1, "ann", "1.00", "1.50")
                        .delete(2, "bob", "2.00")
                        .commit()
                        .take(),
                250);
        awaitCheckpoint(250);

        assertThat(callback.calls)
                .containsExactly(
                        "startBatch",
                        "start 100",
                        "event 100/0 INSERT id=1",
                        "event 100/1 INSERT id=2",
                        "end 100",
                        "start 200",
                        "event 200/0 UPDATE id=1",
                        "event 200/1 DELETE id=2",
                        "end 200",
                        "endBatch 250");
        assertThat(store.saves()).containsExactly(250L);
        assertThat(dispatcher.transactionsDelivered()).isEqualTo(2);
        assertThat(dispatcher.eventsDelivered()).isEqualTo(4);
        assertThat(dispatcher.checkpointTimeMicros()).isEqualTo(1_000_000L + 200);
    }

    @Test
    void shouldCheckpointEveryMaxTransactionsWhenMoreAreBuffered() throws Exception {
        RecordingCallback callback = new RecordingCallback();
        for (int i = 1; i <= 5; i++) {
            stream.order(i * 100L, i);
        }
        publish(buffer, stream.take(), 500);
        start(callback, 2);
        awaitCheckpoint(500);

        assertThat(callback.calls("endBatch"))
                .containsExactly("endBatch 200", "endBatch 400", "endBatch 500");
        assertThat(store.saves()).containsExactly(200L, 400L, 500L);
        assertThat(dispatcher.batches()).isEqualTo(3);
    }

    @Test
    void shouldKeepABatchOpenForTransactionsArrivingWithinMaxWait() throws Exception {
        CountDownLatch firstDelivered = new CountDownLatch(1);
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        if (call.equals("end 100")) {
                            firstDelivered.countDown();
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        start(callback, config(2, Duration.ofMinutes(1), 0), -1);

        publish(buffer, stream.order(100, 1).take(), 100);
        assertThat(firstDelivered.await(10, TimeUnit.SECONDS)).isTrue();
        publish(buffer, stream.order(200, 2).take(), 200);
        awaitCheckpoint(200);

        assertThat(callback.calls("startBatch")).hasSize(1);
        assertThat(callback.calls("endBatch")).containsExactly("endBatch 200");
    }

    @Test
    void shouldCloseABatchAtOnceWhenNothingMoreIsBufferedAndMaxWaitIsZero() throws Exception {
        RecordingCallback callback = new RecordingCallback();
        start(callback, 100);

        publish(buffer, stream.order(100, 1).take(), 100);
        awaitCheckpoint(100);
        publish(buffer, stream.order(200, 2).take(), 200);
        awaitCheckpoint(200);

        assertThat(callback.calls("endBatch")).containsExactly("endBatch 100", "endBatch 200");
    }

    @Test
    void shouldHandNothingToTheCallbackWhileTheGateIsClosedAndGoOnWhenItOpens() throws Exception {
        AtomicBoolean owned = new AtomicBoolean(false);
        RecordingCallback callback = new RecordingCallback();
        start(callback, config(100, Duration.ZERO, 0), -1, owned::get);
        publish(buffer, stream.order(100, 1).order(200, 2).take(), 250);

        Awaitility.await()
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> callback.calls.isEmpty() && store.saves().isEmpty());

        owned.set(true);
        awaitCheckpoint(250);
        assertThat(callback.calls("start ")).containsExactly("start 100", "start 200");
        assertThat(store.saves()).containsExactly(250L);
    }

    @Test
    void shouldRollTheBatchBackAndCheckpointNothingWhenTheGateClosesDuringIt() throws Exception {
        AtomicBoolean owned = new AtomicBoolean(true);
        CountDownLatch rolledBack = new CountDownLatch(1);
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        if (call.startsWith("event 200/")) {
                            // The session is lost while the callback handles transaction 200.
                            owned.set(false);
                        }
                        return CallbackResult.SUCCESS;
                    }

                    @Override
                    public void onRollback(long checkpointScn) {
                        super.onRollback(checkpointScn);
                        rolledBack.countDown();
                    }
                };
        publish(buffer, stream.order(100, 1).take(), 100);
        start(callback, config(100, Duration.ZERO, 0), -1, owned::get);
        awaitCheckpoint(100);

        publish(buffer, stream.order(200, 2).order(300, 3).take(), 300);

        assertThat(rolledBack.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(
                        callback.calls.subList(
                                callback.calls.indexOf("endBatch 100") + 1, callback.calls.size()))
                .as("the transaction inside the callback ends; nothing after it starts")
                .containsExactly(
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "end 200",
                        "rollback 100");
        dispatcher.stop();
        awaitEnd();
        assertThat(store.saves()).containsExactly(100L);
        assertThat(dispatcher.failure()).isNull();
    }

    @Test
    void shouldNotCheckpointABatchWhenTheGateClosedWhileItEnded() throws Exception {
        AtomicBoolean owned = new AtomicBoolean(true);
        CountDownLatch ended = new CountDownLatch(1);
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        if (call.startsWith("endBatch")) {
                            // Frozen inside onEndBatch (its fsync, say) past the session.
                            owned.set(false);
                            ended.countDown();
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        start(callback, config(10, Duration.ZERO, 0), -1, owned::get);
        publish(buffer, stream.order(100, 1).take(), 100);
        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();

        Awaitility.await()
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> store.saves().isEmpty());
        dispatcher.stop();
        awaitEnd();
        assertThat(store.saves()).as("the next owner resumes before this batch").isEmpty();
        assertThat(dispatcher.failure()).isNull();
    }

    @Test
    void shouldDeliverTheRolledBackBatchAgainWhenTheGateOpensAgain() throws Exception {
        AtomicBoolean owned = new AtomicBoolean(true);
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        if (call.equals("end 200") && callback().calls("end 200").size() == 1) {
                            owned.set(false); // a disconnection, and the same session resumes
                        }
                        return CallbackResult.SUCCESS;
                    }

                    @Override
                    public void onRollback(long checkpointScn) {
                        super.onRollback(checkpointScn);
                        owned.set(true);
                    }

                    private RecordingCallback callback() {
                        return this;
                    }
                };
        start(callback, config(100, Duration.ZERO, 0), -1, owned::get);
        publish(buffer, stream.order(200, 2).order(300, 3).take(), 300);
        awaitCheckpoint(300);

        assertThat(callback.calls)
                .containsExactly(
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "end 200",
                        "rollback -1",
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "end 200",
                        "start 300",
                        "event 300/0 INSERT id=3",
                        "end 300",
                        "endBatch 300");
        assertThat(store.saves()).containsExactly(300L);
    }

    @Test
    void shouldDeliverAgainFromTheCheckpointWhenTheCallbackReturnsRetry() throws Exception {
        RecordingCallback callback =
                new RecordingCallback() {
                    boolean retried;

                    @Override
                    CallbackResult answer(String call) {
                        if (call.startsWith("event 300/") && !retried) {
                            retried = true;
                            return CallbackResult.RETRY;
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        publish(buffer, stream.order(100, 1).take(), 100);
        start(callback, 100);
        awaitCheckpoint(100);

        publish(buffer, stream.order(200, 2).order(300, 3).order(400, 4).take(), 400);
        awaitCheckpoint(400);

        assertThat(
                        callback.calls.subList(
                                callback.calls.indexOf("endBatch 100") + 1, callback.calls.size()))
                .containsExactly(
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "end 200",
                        "start 300",
                        "event 300/0 INSERT id=3",
                        "rollback 100",
                        "startBatch",
                        "start 200",
                        "event 200/0 INSERT id=2",
                        "end 200",
                        "start 300",
                        "event 300/0 INSERT id=3",
                        "end 300",
                        "start 400",
                        "event 400/0 INSERT id=4",
                        "end 400",
                        "endBatch 400");
        assertThat(store.saves()).containsExactly(100L, 400L);
        assertThat(dispatcher.retries()).isEqualTo(1);
        assertThat(buffer.usedBytes()).isZero();
    }

    @Test
    void shouldStopWithoutMovingTheCheckpointPastTheTransactionWhenTheCallbackFails()
            throws Exception {
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        return call.equals("event 200/0 INSERT id=2")
                                ? CallbackResult.FAIL
                                : CallbackResult.SUCCESS;
                    }
                };
        publish(buffer, stream.order(100, 1).order(200, 2).order(300, 3).take(), 300);
        start(callback, 1);
        awaitEnd();

        assertThat(dispatcher.failure())
                .isInstanceOf(CallbackFailedException.class)
                .hasMessage("callback failed: method=onEvent, scn=200, index=0, checkpoint=100");
        assertThat(((CallbackFailedException) dispatcher.failure()).scn()).isEqualTo(200);
        assertThat(store.saves()).containsExactly(100L);
        assertThat(callback.calls).endsWith("event 200/0 INSERT id=2", "rollback 100");
        assertThat(callback.calls).doesNotContain("start 300");
    }

    @Test
    void shouldFailWithTheCauseWhenTheCallbackThrows() throws Exception {
        IllegalStateException bug = new IllegalStateException("target table missing");
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        if (call.equals("end 100")) {
                            throw bug;
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        publish(buffer, stream.order(100, 1).take(), 100);
        start(callback, 1);
        awaitEnd();

        assertThat(dispatcher.failure())
                .isInstanceOf(CallbackFailedException.class)
                .hasMessageStartingWith(
                        "callback threw: method=onEndTransaction, scn=100, checkpoint=-1")
                .hasCause(bug);
        assertThat(store.saves()).isEmpty();
        assertThat(callback.calls).endsWith("rollback -1");
    }

    @Test
    void shouldFailWhenTheCallbackReturnsNull() throws Exception {
        publish(buffer, stream.order(100, 1).take(), 100);
        start(event -> null, 1);
        awaitEnd();

        assertThat(dispatcher.failure())
                .hasMessage(
                        "callback returned null: method=onEvent, scn=100, index=0, checkpoint=-1");
    }

    @Test
    void shouldStopAsOnFailWhenTheCallbackRetriesMoreThanTheLimit() throws Exception {
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        return call.equals("endBatch 100")
                                ? CallbackResult.RETRY
                                : CallbackResult.SUCCESS;
                    }
                };
        publish(buffer, stream.order(100, 1).take(), 100);
        start(callback, config(10, Duration.ZERO, 2), -1);
        awaitEnd();

        assertThat(dispatcher.failure())
                .isInstanceOf(CallbackFailedException.class)
                .hasMessage(
                        "callback asked to retry too often: method=onEndBatch, scn=100, checkpoint=-1,"
                                + " retries=3, callback.retryLimit=2");
        assertThat(callback.calls("endBatch")).hasSize(3);
        assertThat(store.saves()).isEmpty();
    }

    @Test
    void shouldMoveTheCheckpointOnHeartbeatsWithoutCallingTheCallback() throws Exception {
        RecordingCallback callback = new RecordingCallback();
        start(callback, 10);

        publish(buffer, stream.heartbeat(50).heartbeat(60).take(), 60);
        awaitCheckpoint(60);
        publish(buffer, new byte[0], 70); // transactions left out by the subscription
        awaitCheckpoint(70);

        assertThat(callback.calls).isEmpty();
        assertThat(dispatcher.checkpointTimeMicros()).isEqualTo(2_000_000L + 60);
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> buffer.usedBytes() == 0);
    }

    @Test
    void shouldFreeBufferSpaceOnlyAfterTheBatchWasCheckpointed() throws Exception {
        CountDownLatch inEndBatch = new CountDownLatch(1);
        CountDownLatch endBatchMayReturn = new CountDownLatch(1);
        List<Long> usedAtSave = new ArrayList<>();
        RecordingCallback callback =
                new RecordingCallback() {
                    @Override
                    CallbackResult answer(String call) {
                        if (call.startsWith("endBatch")) {
                            inEndBatch.countDown();
                            try {
                                endBatchMayReturn.await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        return CallbackResult.SUCCESS;
                    }
                };
        MemoryCheckpointStore watching =
                new MemoryCheckpointStore() {
                    @Override
                    public void save(long scn) throws IOException {
                        usedAtSave.add(buffer.usedBytes());
                        super.save(scn);
                    }
                };
        byte[] body = stream.order(100, 1).take();
        publish(buffer, body, 100);
        dispatcher =
                new Dispatcher(
                        config(10, Duration.ZERO, 0),
                        buffer,
                        List.of(SampleStream.registry()),
                        callback,
                        watching,
                        -1);
        thread = new Thread(dispatcher, "test-dispatcher");
        thread.start();

        assertThat(inEndBatch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(buffer.usedBytes()).isEqualTo(body.length);
        endBatchMayReturn.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> buffer.usedBytes() == 0);

        assertThat(usedAtSave).containsExactly((long) body.length);
    }

    @Test
    void shouldEndTheBatchAtTheEndOfAnEntryWhenThePullerWaitsForRoom() throws Exception {
        // Two entries of five transactions fill the buffer, and the puller waits for room for a
        // third. Room comes a whole entry at a time, so the first batch ends where the first entry
        // ends: not after its first transaction (freeing nothing), and not only at maxTransactions
        // or maxWait. What later batches hold depends on when the third entry fits.
        byte[] first = orders(100, 5);
        byte[] second = orders(600, 5);
        ConsumerBuffer small = new ConsumerBuffer(first.length + second.length, 64);
        publish(small, first, 500);
        publish(small, second, 1000);
        CompletableFuture<Void> third =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                publish(small, orders(1100, 5), 1500);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        });
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(small::isWriterWaiting);
        RecordingCallback callback = new RecordingCallback();
        dispatcher =
                new Dispatcher(
                        config(1000, Duration.ofMillis(200), 0),
                        small,
                        List.of(SampleStream.registry()),
                        callback,
                        store,
                        -1);
        thread = new Thread(dispatcher, "test-dispatcher");
        thread.start();

        third.get(10, TimeUnit.SECONDS);
        awaitCheckpoint(1500);

        assertThat(store.saves()).first().isEqualTo(500L);
        assertThat(callback.calls("endBatch")).first().isEqualTo("endBatch 500");
    }

    /**
     * An entry's body: {@code count} one-row transactions at SCNs from {@code firstScn}, 100 apart.
     */
    private byte[] orders(long firstScn, int count) {
        for (int i = 0; i < count; i++) {
            stream.order(firstScn + 100L * i, (int) (firstScn / 100) + i);
        }
        return stream.take();
    }

    @Test
    void shouldStopWithTheStoreErrorWhenTheCheckpointCannotBeSaved() throws Exception {
        store.failWith(new IOException("disk full"));
        publish(buffer, stream.order(100, 1).take(), 100);
        start(new RecordingCallback(), 1);
        awaitEnd();

        assertThat(dispatcher.failure())
                .isInstanceOf(ConsumerException.class)
                .hasMessageStartingWith("checkpoint not saved: scn=100, store=")
                .hasRootCauseMessage("disk full");
    }

    @Test
    void shouldEndAfterTheLastEntryWhenTheWriterFinished() throws Exception {
        RecordingCallback callback = new RecordingCallback();
        publish(buffer, stream.order(100, 1).order(200, 2).take(), 200);
        buffer.finish();
        start(callback, 1);
        awaitEnd();

        assertThat(dispatcher.failure()).isNull();
        assertThat(store.saves()).containsExactly(100L, 200L);
    }

    @Test
    void shouldShowRowValuesAndSchemaThroughTheViewWhenAsked() throws Exception {
        List<String> seen = new ArrayList<>();
        ConsumerCallback callback =
                event -> {
                    seen.add(describe(event));
                    return CallbackResult.SUCCESS;
                };
        publish(
                buffer,
                stream.begin(100)
                        .insert(1, "ann", "1.00")
                        .update(1, "ann", "1.00", "2.50")
                        .delete(1, "ann", "2.50")
                        .commit()
                        .take(),
                100);
        start(callback, 1);
        awaitCheckpoint(100);

        assertThat(seen)
                .containsExactly(
                        "INSERT shop.orders txn=0-1-100 key=[1] before=null after=[1, ann, 1.00] total=1.00",
                        "UPDATE shop.orders txn=0-1-100 key=[1] before=[1, ann, 1.00] after=[1, ann, 2.50] total=2.50",
                        "DELETE shop.orders txn=0-1-100 key=[1] before=[1, ann, 2.50] after=null total=2.50");
    }

    private static String describe(EventView event) {
        assertThat(event.toChangeEvent().operation()).isEqualTo(event.operation());
        assertThat(event.operation()).isNotEqualTo(Operation.END_OF_TRANSACTION);
        assertThat(event.get("total")).isInstanceOf(BigDecimal.class);
        return event.operation()
                + " "
                + event.database()
                + "."
                + event.table()
                + " txn="
                + event.transactionId()
                + " key="
                + java.util.Arrays.toString(event.key())
                + " before="
                + (event.before() == null ? "null" : java.util.Arrays.toString(event.before()))
                + " after="
                + (event.after() == null ? "null" : java.util.Arrays.toString(event.after()))
                + " total="
                + event.get("total");
    }
}
