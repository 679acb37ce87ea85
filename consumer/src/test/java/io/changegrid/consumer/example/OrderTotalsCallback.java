package io.changegrid.consumer.example;

import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.api.TransactionInfo;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An example consumer callback: keeps the total value of the orders of each customer, from the
 * changes of a table {@code (customer VARCHAR, total DECIMAL, ...)}, by default {@code
 * shop.orders}.
 *
 * <p>What it shows:
 *
 * <ul>
 *   <li><b>Whole transactions.</b> Changes are collected per transaction in {@link #onEvent} and
 *       applied together in {@link #onEndTransaction}, so readers never see half a transaction.
 *   <li><b>At-least-once made exactly-once.</b> The consumer delivers transactions again after a
 *       RETRY (from the last checkpoint, i.e. the start of the batch) and after a restart. The
 *       callback remembers the SCN of the last transaction it applied and skips anything at or
 *       below it. (A callback writing to a database would store that SCN in the same database
 *       transaction as its data; this one keeps everything in memory.)
 *   <li><b>Rollback.</b> {@link #onRollback} drops the transaction collected half-way.
 *   <li><b>Reading values.</b> {@link EventView#get} decodes a column on demand; the view is only
 *       valid during the call, so the values kept are copied out (BigDecimal and String are
 *       immutable).
 * </ul>
 *
 * <p>Threading: every callback method runs on the consumer's dispatcher thread; {@link #totals()}
 * and {@link #appliedScn()} may be read from any thread.
 */
public final class OrderTotalsCallback implements ConsumerCallback {

    private final String database;
    private final String table;
    private final Map<String, BigDecimal> totals = new ConcurrentHashMap<>();
    private final Map<String, BigDecimal> pending = new HashMap<>();
    private volatile long appliedScn = -1;
    private boolean skipping;

    /** Totals of {@code shop.orders}; the no-argument constructor ConsumerMain needs. */
    public OrderTotalsCallback() {
        this("shop", "orders");
    }

    /** Totals of {@code database.table}. */
    public OrderTotalsCallback(String database, String table) {
        this.database = database;
        this.table = table;
    }

    @Override
    public CallbackResult onStartTransaction(TransactionInfo transaction) {
        pending.clear();
        skipping = transaction.scn() <= appliedScn; // delivered again: applied already
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onEvent(EventView event) {
        if (skipping
                || !event.operation().isRowChange()
                || !table.equals(event.table())
                || !database.equals(event.database())) {
            return CallbackResult.SUCCESS; // other tables, and schema changes
        }
        Object[] before = event.before();
        Object[] after = event.after();
        int customer = event.schema().indexOf("customer");
        int total = event.schema().indexOf("total");
        if (customer < 0 || total < 0) {
            // A schema this callback cannot work with: stop rather than compute wrong totals.
            return CallbackResult.FAIL;
        }
        if (before != null) {
            add((String) before[customer], (BigDecimal) before[total], -1);
        }
        if (after != null) {
            add((String) after[customer], (BigDecimal) after[total], 1);
        }
        return CallbackResult.SUCCESS;
    }

    @Override
    public CallbackResult onEndTransaction(TransactionInfo transaction) {
        if (!skipping) {
            pending.forEach((customer, delta) -> totals.merge(customer, delta, BigDecimal::add));
            appliedScn = transaction.scn();
        }
        pending.clear();
        return CallbackResult.SUCCESS;
    }

    @Override
    public void onRollback(long checkpointScn) {
        pending.clear();
    }

    /** The total per customer; customers whose orders were all deleted stay, with zero. */
    public Map<String, BigDecimal> totals() {
        return Map.copyOf(totals);
    }

    /** The SCN of the last transaction applied, -1 before the first. */
    public long appliedScn() {
        return appliedScn;
    }

    private void add(String customer, BigDecimal total, int sign) {
        if (total == null) {
            return;
        }
        BigDecimal delta = sign < 0 ? total.negate() : total;
        pending.merge(Objects.requireNonNullElse(customer, ""), delta, BigDecimal::add);
    }
}
