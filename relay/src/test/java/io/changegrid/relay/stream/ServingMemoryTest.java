package io.changegrid.relay.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServingMemoryTest {

    private final List<String> granted = new ArrayList<>();

    private ServingMemory.Waiter waiter(String name) {
        return bytes -> granted.add(name + "=" + bytes);
    }

    @Test
    void shouldGrantWaitersInArrivalOrderWhenBytesAreGivenBack() {
        ServingMemory memory = new ServingMemory(100);
        assertThat(memory.acquireOrWait(60, waiter("a"))).isTrue();
        assertThat(memory.acquireOrWait(50, waiter("b"))).isFalse();
        assertThat(memory.acquireOrWait(10, waiter("c")))
                .as("a later small request does not overtake an earlier one")
                .isFalse();
        assertThat(memory.waiting()).isEqualTo(2);

        memory.release(60);

        assertThat(granted).containsExactly("b=50", "c=10");
        assertThat(memory.inUse()).isEqualTo(60);
        assertThat(memory.waiting()).isZero();
    }

    @Test
    void shouldServeARequestAloneWhenItAsksForMoreThanTheBudget() {
        ServingMemory memory = new ServingMemory(100);
        assertThat(memory.acquireOrWait(10, waiter("a"))).isTrue();
        assertThat(memory.acquireOrWait(300, waiter("big"))).isFalse();

        memory.release(10);

        assertThat(granted).containsExactly("big=300");
        assertThat(memory.inUse()).as("counted as the whole budget").isEqualTo(100);
        assertThat(memory.acquireOrWait(1, waiter("d"))).isFalse();
        memory.release(300);
        assertThat(granted).containsExactly("big=300", "d=1");
    }

    @Test
    void shouldForgetAWaiterWhenItIsCancelled() {
        ServingMemory memory = new ServingMemory(100);
        ServingMemory.Waiter b = waiter("b");
        memory.acquireOrWait(100, waiter("a"));
        memory.acquireOrWait(100, b);

        assertThat(memory.cancel(b)).isTrue();
        memory.release(100);

        assertThat(granted).isEmpty();
        assertThat(memory.inUse()).isZero();
        assertThat(memory.cancel(b)).isFalse();
    }
}
