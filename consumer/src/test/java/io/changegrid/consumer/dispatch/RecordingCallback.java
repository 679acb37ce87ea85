package io.changegrid.consumer.dispatch;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records every call as a line ({@code start 100}, {@code event 100/0 INSERT id=1}, {@code end
 * 100}, {@code endBatch 100}, {@code rollback -1}) and answers with what {@link #answer} decides.
 */
class RecordingCallback implements ConsumerCallback {

    final List<String> calls = new CopyOnWriteArrayList<>();

    /** The result for a call, given its line; SUCCESS unless overridden. */
    CallbackResult answer(String call) {
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onStartBatch() {
        return record("startBatch");
    }

    @Override
    public CallbackResult onStartTransaction(TransactionInfo transaction) {
        return record("start " + transaction.scn());
    }

    @Override
    public CallbackResult onEvent(EventView event) {
        return record(
                "event "
                        + event.scn()
                        + "/"
                        + event.index()
                        + " "
                        + event.operation()
                        + " id="
                        + event.get("id"));
    }

    @Override
    public CallbackResult onEndTransaction(TransactionInfo transaction) {
        return record("end " + transaction.scn());
    }

    @Override
    public CallbackResult onEndBatch(long checkpointScn) {
        return record("endBatch " + checkpointScn);
    }

    @Override
    public void onRollback(long checkpointScn) {
        calls.add("rollback " + checkpointScn);
    }

    /** The calls so far that start with {@code prefix}. */
    List<String> calls(String prefix) {
        return calls.stream().filter(c -> c.startsWith(prefix)).toList();
    }

    private CallbackResult record(String call) {
        calls.add(call);
        return answer(call);
    }
}
