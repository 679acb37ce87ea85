package io.changegrid.consumer;

import io.changegrid.consumer.buffer.ConsumerBuffer;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.util.List;

/**
 * Real binary frames for tests, as a relay would send them: transactions on {@code shop.orders}
 * (id, customer, total) encoded with the production {@link FrameEncoder}, and heartbeats.
 *
 * <pre>{@code
 * byte[] body = new SampleStream().begin(100).insert(1, "ann", "10.00").commit().heartbeat(150).take();
 * }</pre>
 */
public final class SampleStream {

    /** The table every sample transaction writes. */
    public static final TableSchema ORDERS =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "orders",
                    List.of(
                            new Column("id", ValueType.INT64, "bigint", false, 0),
                            new Column("customer", ValueType.STRING, "varchar(40)", true, 0),
                            new Column("total", ValueType.DECIMAL, "decimal(10,2)", true, 0)),
                    List.of("id"));

    private final FrameEncoder encoder = new FrameEncoder(1024);
    private int sourceId = 1;

    /** A registry holding {@link #ORDERS}, as the consumer's schema cache would after a fetch. */
    public static SchemaRegistry registry() {
        SchemaRegistry registry = new SchemaRegistry();
        registry.restore(ORDERS);
        return registry;
    }

    /** Begins a transaction at {@code scn}, committed one second after the epoch plus scn µs. */
    /** The source id of the frames appended from now on (1 until set). */
    public SampleStream source(int id) {
        sourceId = id;
        return this;
    }

    public SampleStream begin(long scn) {
        encoder.beginTransaction(sourceId, scn, 1_000_000L + scn, "0-1-" + scn);
        return this;
    }

    public SampleStream insert(long id, String customer, String total) {
        encoder.appendRowChange(Operation.INSERT, ORDERS, null, row(id, customer, total));
        return this;
    }

    public SampleStream update(long id, String customer, String oldTotal, String newTotal) {
        encoder.appendRowChange(
                Operation.UPDATE, ORDERS, row(id, customer, oldTotal), row(id, customer, newTotal));
        return this;
    }

    public SampleStream delete(long id, String customer, String total) {
        encoder.appendRowChange(Operation.DELETE, ORDERS, row(id, customer, total), null);
        return this;
    }

    public SampleStream commit() {
        encoder.endTransaction();
        return this;
    }

    /** Ends a part of the open transaction (FLAG_CONTINUED); the transaction stays open. */
    public SampleStream part() {
        encoder.endPart();
        return this;
    }

    /** A one-insert transaction at {@code scn} for order {@code id}. */
    public SampleStream order(long scn, long id) {
        return begin(scn).insert(id, "customer " + id, id + ".00").commit();
    }

    public SampleStream heartbeat(long scn) {
        encoder.appendHeartbeat(sourceId, scn, 2_000_000L + scn);
        return this;
    }

    /** The frames written so far, back to back; the stream starts empty again. */
    public byte[] take() {
        int length = encoder.buffer().position();
        byte[] bytes = new byte[length];
        encoder.buffer().byteBuffer().get(0, bytes);
        encoder.buffer().clear();
        return bytes;
    }

    /** Copies {@code body} into {@code buffer} as one entry, as the puller does. */
    public static void publish(ConsumerBuffer buffer, byte[] body, long lastScn)
            throws InterruptedException {
        int offset = buffer.claim(body.length);
        if (offset < 0) {
            throw new IllegalStateException("claim failed: code=" + offset);
        }
        System.arraycopy(body, 0, buffer.bytes(), offset, body.length);
        buffer.publish(body.length, lastScn, 0);
    }

    /**
     * Copies {@code body} into {@code buffer} as one entry fetched with {@code parts} parts of its
     * first transaction held, as the puller does.
     */
    public static void publish(ConsumerBuffer buffer, byte[] body, long lastScn, int parts)
            throws InterruptedException {
        int offset = buffer.claim(body.length);
        if (offset < 0) {
            throw new IllegalStateException("claim failed: code=" + offset);
        }
        System.arraycopy(body, 0, buffer.bytes(), offset, body.length);
        buffer.publish(body.length, lastScn, 0, null, parts, 0, null);
    }

    private static Object[] row(long id, String customer, String total) {
        return new Object[] {id, customer, total == null ? null : new BigDecimal(total)};
    }
}
