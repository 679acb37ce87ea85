package io.changegrid.consumer.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.MemoryCheckpointStore;
import io.changegrid.consumer.SampleStream;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.Checkpoint;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.events.frame.FrameLayout;
import io.changegrid.events.frame.SnapshotFrames;
import io.changegrid.protocol.SnapshotCursor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The dispatcher's side of snapshots (docs/bootstrap.md): chunks, cursors, completion. */
class SnapshotDispatchTest {

    private final ConsumerBuffer buffer = new ConsumerBuffer(64 << 10, 64);
    private final MemoryCheckpointStore store = new MemoryCheckpointStore();
    private final SampleStream stream = new SampleStream();
    private final Recording callback = new Recording();
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

    @Test
    void shouldCheckpointTheChunkCursorButNotItsScnWhenAChunkWasDelivered() throws Exception {
        start(new Checkpoint(-1, "start"));

        byte[] live = stream.order(100, 1).take();
        byte[] chunk = chunk(150, 0, 10, 11);
        publish(concat(live, chunk), 100, "cursor-1");

        awaitCheckpoint(new Checkpoint(100, "cursor-1"));
        assertThat(callback.transactions)
                .extracting(TransactionInfo::scn, TransactionInfo::snapshotChunk)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(100L, false),
                        org.assertj.core.groups.Tuple.tuple(150L, true));
        assertThat(callback.snapshotRows).isEqualTo(2);
        assertThat(store.checkpoints()).allMatch(c -> c.scn() <= 100);
        assertThat(callback.endBatches).last().isEqualTo(new Checkpoint(100, "cursor-1"));
    }

    @Test
    void shouldSignalCompletionAndDropTheCursorWhenTheLastChunkWasDelivered() throws Exception {
        start(new Checkpoint(90, "cursor-1"));

        publish(chunk(150, FrameLayout.FLAG_SNAPSHOT_COMPLETE, 12), 90, null);
        publish(stream.order(160, 2).take(), 160, null);

        awaitCheckpoint(new Checkpoint(160, null));
        assertThat(callback.completions).isEqualTo(1);
        assertThat(callback.transactions)
                .extracting(TransactionInfo::completesSnapshot)
                .containsExactly(true, false);
        assertThat(store.checkpoints()).noneMatch(c -> c.scn() == 150);
    }

    @Test
    void shouldKeepTheOldCursorWhenTheCallbackFailedOnAChunk() throws Exception {
        callback.failSnapshotRows = true;
        start(new Checkpoint(90, "cursor-1"));

        publish(concat(stream.order(100, 1).take(), chunk(150, 0, 10)), 100, "cursor-2");

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !thread.isAlive());
        assertThat(dispatcher.failure()).isNotNull();
        assertThat(store.checkpoints()).noneMatch(c -> "cursor-2".equals(c.snapshot()));
    }

    @Test
    void shouldSignalTheTableBeforeTheLiveTransactionsOfItsFirstChunkWhenAnEntryBeginsOne()
            throws Exception {
        callback.retrySnapshotRowsOnce = true;
        String tableStart = SnapshotCursor.startOf("shop", "orders", 90).toText();
        start(new Checkpoint(90, tableStart));

        byte[] body = concat(stream.order(100, 1).take(), chunk(150, 0, 10));
        int offset = buffer.claim(body.length);
        System.arraycopy(body, 0, buffer.bytes(), offset, body.length);
        buffer.publish(
                body.length,
                100,
                0,
                "cursor-2",
                0,
                0,
                SnapshotCursor.begunTable(tableStart, "cursor-2").orElseThrow());
        publish(stream.order(160, 2).take(), 160, "cursor-2");

        awaitCheckpoint(new Checkpoint(160, "cursor-2"));
        // Delivered again after the RETRY: the table begins again (emptying is idempotent).
        assertThat(callback.calls)
                .containsExactly(
                        "start shop.orders",
                        "txn 100",
                        "txn 150",
                        "start shop.orders",
                        "txn 100",
                        "txn 150",
                        "txn 160");
    }

    private void start(Checkpoint checkpoint) {
        ConsumerConfig config =
                ConsumerConfig.of(
                        Map.of(
                                "relays",
                                List.of("http://127.0.0.1:1"),
                                "start",
                                "snapshot",
                                "callback.retryLimit",
                                1));
        dispatcher =
                new Dispatcher(
                        config,
                        buffer,
                        List.of(SampleStream.registry()),
                        callback,
                        store,
                        checkpoint,
                        DeliveryGate.ALWAYS_OPEN);
        thread = new Thread(dispatcher, "test-dispatcher");
        thread.start();
    }

    /** A chunk at {@code high} with a row per id, its frames flagged as a relay flags them. */
    private byte[] chunk(long high, int moreFlags, long... ids) {
        stream.begin(high);
        for (long id : ids) {
            stream.insert(id, "copied " + id, id + ".00");
        }
        byte[] bytes = stream.commit().take();
        new SnapshotFrames()
                .mark(
                        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN),
                        0,
                        bytes.length,
                        FrameLayout.FLAG_SNAPSHOT | moreFlags);
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private void publish(byte[] body, long lastScn, String cursor) throws InterruptedException {
        int offset = buffer.claim(body.length);
        System.arraycopy(body, 0, buffer.bytes(), offset, body.length);
        buffer.publish(body.length, lastScn, 0, cursor);
    }

    private void awaitCheckpoint(Checkpoint expected) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                store.checkpoints().contains(expected)
                                        || dispatcher.failure() != null);
        assertThat(dispatcher.failure()).isNull();
    }

    private static final class Recording implements ConsumerCallback {
        final List<TransactionInfo> transactions = new CopyOnWriteArrayList<>();
        final List<Checkpoint> endBatches = new CopyOnWriteArrayList<>();
        volatile int snapshotRows;
        volatile int completions;
        volatile boolean failSnapshotRows;
        volatile boolean retrySnapshotRowsOnce;
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public CallbackResult onSnapshotStart(String database, String table) {
            calls.add("start " + database + "." + table);
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onStartTransaction(TransactionInfo transaction) {
            transactions.add(transaction);
            calls.add("txn " + transaction.scn());
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onEvent(EventView event) {
            if (event.isSnapshot()) {
                if (failSnapshotRows) {
                    return CallbackResult.FAIL;
                }
                if (retrySnapshotRowsOnce) {
                    retrySnapshotRowsOnce = false;
                    return CallbackResult.RETRY;
                }
                snapshotRows++;
            }
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onSnapshotComplete() {
            completions++;
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onEndBatch(Checkpoint checkpoint) {
            endBatches.add(checkpoint);
            return CallbackResult.SUCCESS;
        }
    }
}
