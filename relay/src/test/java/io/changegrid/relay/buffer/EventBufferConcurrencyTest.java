package io.changegrid.relay.buffer;

import static io.changegrid.relay.buffer.EventBuffer.NULL_SCN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.changegrid.relay.buffer.SampleTransactions.Entry;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * One writer appending, evicting and wrapping as fast as it can while readers on other threads
 * copy: every entry a reader gets must be whole and CRC-valid, in SCN order, and exactly the entry
 * that follows its checkpoint; the only allowed gap is after an honest {@link
 * EventBufferReader#TOO_OLD}.
 */
class EventBufferConcurrencyTest {

    private static final int SEGMENT = 64 * 1024;
    private static final int SEGMENTS = 4;
    private static final int ENTRIES = 100_000;
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(120);

    @Test
    void shouldReadWholeTransactionsInOrderWhenWriterAppendsEvictsAndWrapsConcurrently()
            throws InterruptedException {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println(
                "EventBufferConcurrencyTest seed=" + seed + " (repeat with -Dseed=" + seed + ")");
        Plan plan = Plan.random(new Random(seed), ENTRIES);
        EventBuffer buffer =
                new EventBuffer(
                        EventBufferConfig.direct((long) SEGMENTS * SEGMENT, SEGMENT)
                                .withIndexStrideBytes(1024));
        buffer.allowPins(1);
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        AtomicReference<Throwable> failure = new AtomicReference<>();

        Thread writer = start("writer", failure, () -> write(buffer, plan, seed));
        ReaderRun large = new ReaderRun(buffer, plan, SEGMENT, deadline);
        ReaderRun small = new ReaderRun(buffer, plan, 4 * 1024, deadline);
        PinReaderRun pinning = new PinReaderRun(buffer, plan, 16 * 1024, deadline);
        Thread[] readers = {
            start("reader-64k", failure, large),
            start("reader-4k", failure, small),
            start("reader-pin", failure, pinning)
        };

        join(writer, deadline);
        for (Thread reader : readers) {
            join(reader, deadline);
        }
        buffer.close();
        if (failure.get() != null) {
            throw new AssertionError("seed=" + seed, failure.get());
        }
        System.out.println(
                "EventBufferConcurrencyTest appended="
                        + buffer.transactionsAppended()
                        + ", segmentsEvicted="
                        + buffer.segmentsEvicted()
                        + ", reader-64k="
                        + large
                        + ", reader-4k="
                        + small
                        + ", reader-pin="
                        + pinning
                        + ", segmentsSwappedForReaders="
                        + buffer.segmentsSwappedForReaders());
        assertThat(buffer.transactionsAppended()).isEqualTo(ENTRIES);
        assertThat(buffer.segmentsEvicted()).as("seed=%d", seed).isGreaterThan(100);
        assertThat(large.entriesRead).as("seed=%d", seed).isPositive();
        assertThat(small.entriesRead).as("seed=%d", seed).isPositive();
        assertThat(small.tooSmall).as("seed=%d", seed).isPositive();
        assertThat(pinning.entriesRead).as("seed=%d", seed).isPositive();
        assertThat(buffer.segmentsSwappedForReaders()).as("seed=%d", seed).isPositive();
    }

    private static void write(EventBuffer buffer, Plan plan, long seed) {
        SampleTransactions samples = new SampleTransactions(seed);
        for (int i = 0; i < plan.size(); i++) {
            long scn = plan.scns[i];
            ByteBuffer frames =
                    plan.heartbeat[i]
                            ? samples.heartbeat(scn)
                            : samples.transaction(scn, plan.events[i], plan.payloads[i]);
            // Published before the append, which releases it to readers with the entry.
            plan.lengths.set(i, samples.length());
            assertThat(buffer.append(scn, frames, 0, samples.length())).isPositive();
        }
    }

    /** The entries the writer appends, decided up front so that readers can check each one. */
    private record Plan(
            long[] scns,
            boolean[] heartbeat,
            int[] events,
            int[] payloads,
            AtomicIntegerArray lengths) {

        static Plan random(Random random, int size) {
            Plan plan =
                    new Plan(
                            new long[size],
                            new boolean[size],
                            new int[size],
                            new int[size],
                            new AtomicIntegerArray(size));
            long scn = 1000;
            for (int i = 0; i < size; i++) {
                boolean heartbeat = random.nextInt(10) == 0;
                plan.heartbeat[i] = heartbeat;
                if (heartbeat) {
                    // Heartbeats may repeat the last SCN, a transaction's or a heartbeat's.
                    scn += random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(5);
                } else {
                    scn += 1 + random.nextInt(100);
                    int shape = random.nextInt(100);
                    if (shape == 0) {
                        // Close to a whole segment: forces padding and, for the small reader,
                        // a destination too small.
                        plan.events[i] = 45;
                        plan.payloads[i] = 1200;
                    } else if (shape < 10) {
                        plan.events[i] = 1 + random.nextInt(40);
                        plan.payloads[i] = random.nextInt(100);
                    } else {
                        plan.events[i] = 1 + random.nextInt(12);
                        plan.payloads[i] = random.nextInt(1500);
                    }
                }
                plan.scns[i] = scn;
            }
            return plan;
        }

        int size() {
            return scns.length;
        }

        /** The index of the first entry whose SCN is above {@code scn}. */
        int firstAbove(long scn) {
            int at = Arrays.binarySearch(scns, scn);
            if (at < 0) {
                return -at - 1;
            }
            while (at < scns.length && scns[at] <= scn) {
                at++;
            }
            return at;
        }
    }

    /** A reader that follows the writer and checks everything it gets against the plan. */
    private static final class ReaderRun implements Runnable {

        private final EventBuffer buffer;
        private final Plan plan;
        private final long deadline;
        private final EventBufferReader reader;
        private ByteBuffer destination;
        long entriesRead;
        long reads;
        long nothingYet;
        long tooOld;
        long tooSmall;

        ReaderRun(EventBuffer buffer, Plan plan, int destinationBytes, long deadline) {
            this.buffer = buffer;
            this.plan = plan;
            this.deadline = deadline;
            this.reader = buffer.newReader();
            this.destination = ByteBuffer.allocate(destinationBytes);
        }

        @Override
        public void run() {
            long lastScn = plan.scns[plan.size() - 1];
            long checkpoint = NULL_SCN;
            while (checkpoint != lastScn) {
                if (System.nanoTime() > deadline) {
                    fail("reader did not reach the last SCN in time: checkpoint=" + checkpoint);
                }
                destination.clear();
                long newestBefore = buffer.newestScn();
                int result = reader.read(checkpoint, destination);
                int expected = plan.firstAbove(checkpoint);
                switch (result) {
                    case EventBufferReader.NOTHING_YET -> {
                        nothingYet++;
                        // Whatever was visible before the read must have been found by it.
                        assertThat(newestBefore).isLessThanOrEqualTo(checkpoint);
                        // Not a sleep: gives the writer the core on a machine with few of them.
                        Thread.yield();
                    }
                    case EventBufferReader.TOO_OLD -> {
                        tooOld++;
                        long evicted = buffer.highestEvictedScn();
                        assertThat(evicted).isGreaterThan(checkpoint);
                        assertThat(reader.oldestScn()).isGreaterThanOrEqualTo(plan.scns[expected]);
                        // A consumer would bootstrap here; then everything above is in the buffer.
                        checkpoint = evicted;
                    }
                    case EventBufferReader.DESTINATION_TOO_SMALL -> {
                        tooSmall++;
                        assertThat(reader.requiredBytes())
                                .isEqualTo(plan.lengths.get(expected))
                                .isGreaterThan(destination.capacity());
                        destination = ByteBuffer.allocate(reader.requiredBytes());
                    }
                    default -> {
                        reads++;
                        checkpoint = check(result, expected);
                    }
                }
            }
        }

        private long check(int result, int expected) {
            List<Entry> entries =
                    SampleTransactions.entries(destination, 0, destination.position());
            assertThat(entries).hasSize(result);
            assertThat(reader.bytesCopied()).isEqualTo(destination.position());
            int at = expected;
            for (Entry entry : entries) {
                assertThat(entry)
                        .as("entry %d", at)
                        .isEqualTo(
                                new Entry(
                                        plan.scns[at],
                                        plan.heartbeat[at],
                                        plan.heartbeat[at] ? 0 : plan.events[at],
                                        plan.lengths.get(at)));
                at++;
            }
            entriesRead += result;
            assertThat(reader.lastScn()).isEqualTo(entries.get(entries.size() - 1).scn());
            return reader.lastScn();
        }

        @Override
        public String toString() {
            return "[entries="
                    + entriesRead
                    + ", reads="
                    + reads
                    + ", nothingYet="
                    + nothingYet
                    + ", tooOld="
                    + tooOld
                    + ", tooSmall="
                    + tooSmall
                    + ", retries="
                    + reader.retries()
                    + "]";
        }
    }

    /**
     * A reader that pins entries instead of copying them and holds each pin while the writer laps
     * the whole log, as a slow socket would, then checks the bytes: they must be what was appended,
     * though the writer evicted their segment long ago.
     */
    private static final class PinReaderRun implements Runnable {

        private final EventBuffer buffer;
        private final Plan plan;
        private final int maxBytes;
        private final long deadline;
        private final EventBufferReader reader;
        long entriesRead;
        long pins;
        long tooOld;

        PinReaderRun(EventBuffer buffer, Plan plan, int maxBytes, long deadline) {
            this.buffer = buffer;
            this.plan = plan;
            this.maxBytes = maxBytes;
            this.deadline = deadline;
            this.reader = buffer.newReader();
        }

        @Override
        public void run() {
            long lastScn = plan.scns[plan.size() - 1];
            long checkpoint = NULL_SCN;
            while (checkpoint != lastScn) {
                if (System.nanoTime() > deadline) {
                    fail("pinning reader did not reach the last SCN: checkpoint=" + checkpoint);
                }
                int result = reader.pin(checkpoint, maxBytes);
                int expected = plan.firstAbove(checkpoint);
                switch (result) {
                    case EventBufferReader.NOTHING_YET -> Thread.yield();
                    case EventBufferReader.TOO_OLD -> {
                        tooOld++;
                        checkpoint = buffer.highestEvictedScn();
                    }
                    case EventBufferReader.NOT_PINNED -> fail("the only pinning reader refused");
                    default -> {
                        pins++;
                        checkpoint = holdAndCheck(result, expected);
                    }
                }
            }
        }

        private long holdAndCheck(int result, int expected) {
            ByteBuffer view = reader.pinnedEntries();
            long lapped = buffer.segmentsEvicted() + SEGMENTS;
            while (buffer.segmentsEvicted() < lapped
                    && buffer.transactionsAppended() < plan.size()
                    && System.nanoTime() < deadline) {
                Thread.yield();
            }
            List<Entry> entries = SampleTransactions.entries(view, view.position(), view.limit());
            reader.pinned().release();
            assertThat(entries).hasSize(result);
            assertThat(reader.bytesCopied()).isEqualTo(view.remaining());
            int at = expected;
            for (Entry entry : entries) {
                assertThat(entry)
                        .as("pinned entry %d", at)
                        .isEqualTo(
                                new Entry(
                                        plan.scns[at],
                                        plan.heartbeat[at],
                                        plan.heartbeat[at] ? 0 : plan.events[at],
                                        plan.lengths.get(at)));
                at++;
            }
            entriesRead += result;
            return reader.lastScn();
        }

        @Override
        public String toString() {
            return "[entries=" + entriesRead + ", pins=" + pins + ", tooOld=" + tooOld + "]";
        }
    }

    private static Thread start(String name, AtomicReference<Throwable> failure, Runnable task) {
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                task.run();
                            } catch (Throwable t) {
                                failure.compareAndSet(null, t);
                            }
                        },
                        name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void join(Thread thread, long deadline) throws InterruptedException {
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        thread.join(left);
        assertThat(thread.isAlive())
                .as("%s finished before the deadline", thread.getName())
                .isFalse();
    }
}
