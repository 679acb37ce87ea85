package io.changegrid.consumer.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class ConsumerBufferTest {

    private static final long NO_WAIT = 0;

    @Test
    void shouldHandEntriesToTheReaderInOrderWhenPublished() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1024, 16);
        assertThat(buffer.await(0, NO_WAIT)).isEqualTo(ConsumerBuffer.NOTHING_YET);

        int first = buffer.claim(100);
        buffer.publish(100, 10, 0);
        int second = buffer.claim(50);
        buffer.publish(40, 20, 1);

        assertThat(buffer.await(0, NO_WAIT)).isEqualTo(ConsumerBuffer.AVAILABLE);
        assertThat(buffer.await(1, NO_WAIT)).isEqualTo(ConsumerBuffer.AVAILABLE);
        assertThat(buffer.await(2, NO_WAIT)).isEqualTo(ConsumerBuffer.NOTHING_YET);
        assertThat(buffer.entryOffset(0)).isEqualTo(first).isZero();
        assertThat(buffer.entryOffset(1)).isEqualTo(second).isEqualTo(100);
        assertThat(buffer.entryLength(1)).isEqualTo(40);
        assertThat(buffer.entryLastScn(1)).isEqualTo(20);
        assertThat(buffer.entrySource(1)).isEqualTo(1);
        assertThat(buffer.usedBytes()).isEqualTo(140);

        buffer.release(1);
        assertThat(buffer.usedBytes()).isEqualTo(40);
        buffer.release(2);
        assertThat(buffer.usedBytes()).isZero();
    }

    @Test
    void shouldBlockTheWriterWhenFullUntilTheReaderReleases() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1024, 16);
        buffer.claim(600);
        buffer.publish(600, 1, 0);

        CompletableFuture<Integer> blocked =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return buffer.claim(600);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(buffer::isWriterWaiting);
        assertThat(blocked).isNotDone();

        buffer.release(1);

        assertThat(blocked.get(5, TimeUnit.SECONDS)).isZero(); // empty again: starts over at 0
    }

    @Test
    void shouldStartAnEntryAtOffsetZeroWhenTheTailIsTooShort() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1000, 16);
        buffer.claim(700);
        buffer.publish(700, 1, 0);
        buffer.claim(200);
        buffer.publish(200, 2, 0);
        buffer.release(1); // [0, 700) free, [700, 900) used, tail [900, 1000) too short

        int offset = buffer.claim(300);
        buffer.publish(300, 3, 0);

        assertThat(offset).isZero();
        assertThat(buffer.usedBytes()).as("entry, padding and entry").isEqualTo(200 + 100 + 300);
        buffer.release(3);
        assertThat(buffer.usedBytes()).isZero();
    }

    @Test
    void shouldWaitForFreeEntrySlotsWhenEveryOneIsInUse() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1024, 2);
        buffer.claim(0);
        buffer.publish(0, 1, 0);
        buffer.claim(0);
        buffer.publish(0, 2, 0);

        CompletableFuture<Integer> blocked =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return buffer.claim(10);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(buffer::isWriterWaiting);
        buffer.release(1);

        assertThat(blocked.get(5, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void shouldRefuseABodyLargerThanTheBufferWhenClaimed() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1024, 16);

        assertThat(buffer.claim(1025)).isEqualTo(ConsumerBuffer.TOO_LARGE);
    }

    @Test
    void shouldWakeABlockedWriterWithClosedWhenClosed() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1024, 16);
        buffer.claim(1024);
        buffer.publish(1024, 1, 0);
        CompletableFuture<Integer> room =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return buffer.claim(1);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(buffer::isWriterWaiting);

        buffer.close();

        assertThat(room.get(5, TimeUnit.SECONDS)).isEqualTo(ConsumerBuffer.CLOSED);
        assertThat(buffer.claim(1)).isEqualTo(ConsumerBuffer.CLOSED);
        assertThat(buffer.await(0, NO_WAIT))
                .as("published before close")
                .isEqualTo(ConsumerBuffer.AVAILABLE);
        assertThat(buffer.await(1, NO_WAIT)).isEqualTo(ConsumerBuffer.FINISHED);
    }

    @Test
    void shouldReturnNothingYetToAWaitingReaderWhenWoken() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1024, 16);
        CompletableFuture<Integer> waiting =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return buffer.await(0, TimeUnit.MINUTES.toNanos(1));
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(
                        () -> {
                            buffer.wakeReader();
                            return waiting.isDone();
                        });

        assertThat(waiting.get()).isEqualTo(ConsumerBuffer.NOTHING_YET);
    }

    @Test
    void shouldWakeAWaitingReaderWhenAnEntryIsPublished() throws Exception {
        ConsumerBuffer buffer = new ConsumerBuffer(1024, 16);
        CompletableFuture<Integer> waiting =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return buffer.await(0, TimeUnit.MINUTES.toNanos(1));
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        buffer.claim(8);
        buffer.publish(8, 5, 0);

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo(ConsumerBuffer.AVAILABLE);
    }
}
