package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import io.changegrid.fetchers.TransactionSink;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.CaptureRouter;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.policy.capture.TableRoute;
import io.changegrid.policy.capture.TransactionWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartCutterTest {

    private static final int SEGMENT = 64 * 1024; // parts of 16 KiB

    private final SchemaRegistry registry = new SchemaRegistry();
    private final TableSchema schema =
            registry.register(
                    "shop",
                    "notes",
                    List.of(Column.of("id", ValueType.INT64), Column.of("note", ValueType.STRING)),
                    List.of("id"));
    private final TableRoute route =
            new CaptureRouter(
                            TableFilter.of(List.of(), List.of()),
                            CapturePlan.everything(),
                            registry)
                    .route(schema);
    private final TransactionWriter writer = new TransactionWriter(1, 1024);

    @Test
    void shouldHandOverPartsOfAboutPartBytesWhenTheSinkTakesParts() throws Exception {
        Parts sink = new Parts(true);
        PartCutter cutter = new PartCutter(writer, sink, SEGMENT);
        writer.open(500, 1, "0-1-5");

        for (int i = 0; i < 100; i++) {
            writer.appendRow(
                    route, Operation.INSERT, null, new Object[] {(long) i, "x".repeat(1000)});
            cutter.afterEvent(() -> "scn=500");
        }

        assertThat(sink.parts).hasSizeBetween(5, 7);
        assertThat(sink.lengths).allMatch(l -> l >= 16 * 1024 && l < 16 * 1024 + 2 * 1100);
        assertThat(sink.partEndsContinue).containsOnly(true);
        assertThat(writer.length()).as("one part left on the heap").isLessThan(16 * 1024);
        assertThat(writer.events()).isEqualTo(100);
    }

    @Test
    void shouldStopAtATransactionLargerThanASegmentWhenTheSinkTakesNoParts() throws Exception {
        PartCutter cutter = new PartCutter(writer, new Parts(false), SEGMENT);
        writer.open(500, 1, "0-1-5");

        assertThatThrownBy(
                        () -> {
                            for (int i = 0; i < 100; i++) {
                                writer.appendRow(
                                        route,
                                        Operation.INSERT,
                                        null,
                                        new Object[] {(long) i, "x".repeat(1000)});
                                cutter.afterEvent(() -> "scn=500");
                            }
                        })
                .isInstanceOf(TransactionTooLargeException.class)
                .hasMessageContaining("buffer.transactionParts")
                .hasMessageContaining("maxTransactionBytes=" + SEGMENT);
    }

    @Test
    void shouldForgetHandedPartsWhenAbandoned() throws Exception {
        Parts sink = new Parts(true);
        PartCutter cutter = new PartCutter(writer, sink, SEGMENT);
        writer.open(500, 1, "0-1-5");
        for (int i = 0; i < 40; i++) {
            writer.appendRow(
                    route, Operation.INSERT, null, new Object[] {(long) i, "x".repeat(1000)});
            cutter.afterEvent(() -> "scn=500");
        }

        cutter.abandon();

        assertThat(sink.abandoned).isTrue();
    }

    /** Collects the parts handed over. */
    private static final class Parts implements TransactionSink {
        final boolean takesParts;
        final List<Long> parts = new ArrayList<>();
        final List<Integer> lengths = new ArrayList<>();
        final List<Boolean> partEndsContinue = new ArrayList<>();
        boolean abandoned;

        Parts(boolean takesParts) {
            this.takesParts = takesParts;
        }

        @Override
        public boolean takesParts() {
            return takesParts;
        }

        @Override
        public void acceptPart(long scn, ByteBuffer frames, int length) {
            parts.add(scn);
            lengths.add(length);
            EventFrame frame = new EventFrame();
            int last = 0;
            for (int at = 0; at < length; at += frame.length()) {
                frame.wrap(frames, at);
                last = at;
            }
            partEndsContinue.add(frame.wrap(frames, last).continues());
        }

        @Override
        public void abandonParts() {
            abandoned = true;
        }

        @Override
        public void accept(
                long scn,
                ByteBuffer frames,
                int length,
                int events,
                long commitTimeMicros,
                String resumePosition) {}
    }
}
