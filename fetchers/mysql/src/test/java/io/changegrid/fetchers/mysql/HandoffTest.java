package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class HandoffTest {

    @Test
    void shouldHandOverEveryItemInOrderWhenBothSidesWaitOnEachOther() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int items = 200_000;
        Handoff<Integer> handoff = new Handoff<>(64);
        List<Integer> taken = new ArrayList<>(items);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread consumer =
                new Thread(
                        () -> {
                            try {
                                for (int i = 0; i < items; i++) {
                                    taken.add(handoff.take());
                                }
                            } catch (Throwable e) {
                                failure.set(e);
                            }
                        });
        consumer.start();
        for (int i = 0; i < items; i++) {
            // Mostly not urgent, as row events are; the last one is, as a commit would be.
            handoff.put(i, i == items - 1 || random.nextInt(50) == 0);
            if (random.nextInt(10_000) == 0) {
                Thread.yield(); // let the consumer find the ring empty and park now and then
            }
        }
        consumer.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(failure.get()).as("seed=" + seed).isNull();
        assertThat(taken).as("seed=" + seed).hasSize(items);
        for (int i = 0; i < items; i++) {
            assertThat(taken.get(i)).as("item " + i + ", seed=" + seed).isEqualTo(i);
        }
    }

    @Test
    void shouldWakeTheConsumerWhenARingSmallerThanABatchIsFullOfItemsThatAreNotUrgent()
            throws Exception {
        Handoff<Integer> handoff = new Handoff<>(4);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Integer> taken = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread consumer =
                new Thread(
                        () -> {
                            try {
                                while (true) {
                                    taken.add(handoff.take());
                                }
                            } catch (InterruptedException e) {
                                // the test is over
                            } catch (Throwable e) {
                                failure.set(e);
                            }
                        });
        consumer.setDaemon(true);
        consumer.start();
        for (int i = 0; i < 1000; i++) {
            handoff.put(i, false); // would block for good if a full ring did not wake the consumer
        }
        handoff.put(1000, true);
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> taken.size() == 1001 || failure.get() != null);
        consumer.interrupt();
        assertThat(failure.get()).isNull();
        assertThat(taken).hasSize(1001);
    }

    @Test
    void shouldThrowWhenInterruptedWhileWaitingForAnItem() throws Exception {
        Handoff<String> handoff = new Handoff<>(2);
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread consumer =
                new Thread(
                        () -> {
                            waiting.countDown();
                            try {
                                handoff.take();
                            } catch (Throwable e) {
                                thrown.set(e);
                            }
                        });
        consumer.start();
        waiting.await();
        consumer.interrupt();
        consumer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void shouldThrowWhenInterruptedWhileFull() throws Exception {
        Handoff<String> handoff = new Handoff<>(2);
        handoff.put("a");
        handoff.put("b");
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> handoff.put("c")).isInstanceOf(InterruptedException.class);
        assertThat(handoff.take()).isEqualTo("a");
    }

    @Test
    void shouldRefuseACapacityThatIsNotAPowerOfTwoWhenBuilt() {
        assertThatThrownBy(() -> new Handoff<String>(3))
                .hasMessageContaining("power of two")
                .hasMessageContaining("capacity=3");
    }
}
