package io.changegrid.deploy;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A callback that records every transaction it is handed whole, in delivery order, as {@code table
 * op id} lines; {@link #answer} can make it RETRY or FAIL.
 */
class TransactionLog implements ConsumerCallback {

    /** One delivered transaction. */
    record Delivered(long scn, int eventCount, int deliveredCount, List<String> events) {}

    final List<Delivered> transactions = new CopyOnWriteArrayList<>();
    final List<Long> rollbacks = new CopyOnWriteArrayList<>();
    private List<String> current;

    /** The result for an event, given its line; SUCCESS unless overridden. */
    CallbackResult answer(String event) {
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onStartTransaction(TransactionInfo transaction) {
        current = new ArrayList<>();
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onEvent(EventView event) {
        String line =
                event.operation().isRowChange()
                        ? event.table() + " " + event.operation() + " " + event.get("id")
                        : event.operation() + " " + event.table();
        current.add(line);
        return answer(line);
    }

    @Override
    public CallbackResult onEndTransaction(TransactionInfo transaction) {
        transactions.add(
                new Delivered(
                        transaction.scn(),
                        transaction.eventCount(),
                        transaction.deliveredCount(),
                        List.copyOf(current)));
        return CallbackResult.SUCCESS;
    }

    @Override
    public void onRollback(long checkpointScn) {
        rollbacks.add(checkpointScn);
    }

    /** Every event line delivered, in order, re-deliveries included. */
    List<String> events() {
        List<String> all = new ArrayList<>();
        for (Delivered transaction : transactions) {
            all.addAll(transaction.events());
        }
        return all;
    }

    /** The SCN of the (last delivered) transaction holding this event line, or -1. */
    long scnOf(String event) {
        long scn = -1;
        for (Delivered transaction : transactions) {
            if (transaction.events().contains(event)) {
                scn = transaction.scn();
            }
        }
        return scn;
    }
}
