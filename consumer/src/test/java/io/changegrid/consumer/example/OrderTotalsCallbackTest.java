package io.changegrid.consumer.example;

import static io.changegrid.consumer.SampleStream.publish;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.consumer.MemoryCheckpointStore;
import io.changegrid.consumer.SampleStream;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.consumer.config.ConsumerConfig;
import io.changegrid.consumer.dispatch.Dispatcher;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OrderTotalsCallbackTest {

    @Test
    void shouldApplyEveryTransactionOnceWhenABatchIsDeliveredAgainAfterRetry() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(64 << 10, 16);
        publish(
                buffer,
                new SampleStream()
                        .begin(100)
                        .insert(1, "ann", "10.00")
                        .insert(2, "bob", "5.00")
                        .commit()
                        .begin(200)
                        .update(1, "ann", "10.00", "12.50")
                        .commit()
                        .begin(300)
                        .delete(2, "bob", "5.00")
                        .insert(3, "ann", "0.25")
                        .commit()
                        .take(),
                300);
        buffer.finish();
        OrderTotalsCallback totals = new OrderTotalsCallback();
        RetryOnceAtEndOfBatch callback = new RetryOnceAtEndOfBatch(totals);
        ConsumerConfig config =
                ConsumerConfig.of(
                        Map.of("relays", "http://127.0.0.1:1", "callback.retryBackoff", "1ms"));

        new Dispatcher(
                        config,
                        buffer,
                        List.of(SampleStream.registry()),
                        callback,
                        new MemoryCheckpointStore(),
                        -1)
                .run();

        assertThat(callback.retried).as("the batch was delivered twice").isTrue();
        assertThat(totals.totals())
                .isEqualTo(Map.of("ann", new BigDecimal("12.75"), "bob", new BigDecimal("0.00")));
        assertThat(totals.appliedScn()).isEqualTo(300);
    }

    /** Passes every call on, but answers RETRY to the first onEndBatch. */
    private static final class RetryOnceAtEndOfBatch implements ConsumerCallback {
        private final ConsumerCallback delegate;
        boolean retried;

        RetryOnceAtEndOfBatch(ConsumerCallback delegate) {
            this.delegate = delegate;
        }

        @Override
        public CallbackResult onStartTransaction(TransactionInfo transaction) {
            return delegate.onStartTransaction(transaction);
        }

        @Override
        public CallbackResult onEvent(EventView event) {
            return delegate.onEvent(event);
        }

        @Override
        public CallbackResult onEndTransaction(TransactionInfo transaction) {
            return delegate.onEndTransaction(transaction);
        }

        @Override
        public CallbackResult onEndBatch(long checkpointScn) {
            if (!retried) {
                retried = true;
                return CallbackResult.RETRY;
            }
            return delegate.onEndBatch(checkpointScn);
        }

        @Override
        public void onRollback(long checkpointScn) {
            delegate.onRollback(checkpointScn);
        }
    }
}
