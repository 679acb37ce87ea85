package io.changegrid.consumer.group.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GroupControlTest {

    @Test
    void shouldReadBackWhatItWroteWhenEncoded() throws IOException {
        GroupControl control =
                GroupControl.NONE
                        .withPartitionPaused(3, true)
                        .withPartitionPaused(1, true)
                        .withReset(5, 4294967396L);

        GroupControl read = GroupControl.decode("/c", control.encode());

        assertThat(read).isEqualTo(control);
        assertThat(read.pausedPartitions()).isEqualTo(Set.of(1, 3));
        assertThat(new String(control.encode(), StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"paused\":false,\"pausedPartitions\":[1,3],\"resets\":{\"5\":4294967396}}");
    }

    @Test
    void shouldKeepARequestedReseedUntilItIsAppliedWhenEncoded() throws IOException {
        GroupControl control = GroupControl.NONE.withReset(5, 7L).withReseed(2);

        GroupControl read = GroupControl.decode("/c", control.encode());

        assertThat(read).isEqualTo(control);
        assertThat(read.reseeds()).containsExactly(2);
        assertThat(new String(control.encode(), StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"paused\":false,\"pausedPartitions\":[],\"resets\":{\"5\":7},"
                                + "\"reseeds\":[2]}");
        assertThat(read.withReseedApplied(2).reseeds()).isEmpty();
        assertThat(read.withReseedApplied(2).resets()).containsEntry(5, 7L);
    }

    @Test
    void shouldPauseEveryPartitionWhenTheGroupIsPaused() {
        GroupControl control = GroupControl.NONE.withGroupPaused(true);

        assertThat(control.isPaused(0)).isTrue();
        assertThat(control.isPaused(7)).isTrue();
        assertThat(control.withGroupPaused(false).isPaused(7)).isFalse();
    }

    @Test
    void shouldKeepANewerResetWhenAnOlderOneIsAcknowledged() {
        GroupControl control = GroupControl.NONE.withReset(2, 100);

        assertThat(control.withReset(2, 200).withResetApplied(2, 100).resetOf(2))
                .isEqualTo(OptionalLong.of(200));
        assertThat(control.withResetApplied(2, 100).resets()).isEqualTo(Map.of());
    }

    @Test
    void shouldNameTheNodeWhenItsBytesAreNotAControl() {
        assertThatThrownBy(
                        () ->
                                GroupControl.decode(
                                        "/changegrid/groups/g/control",
                                        "[1]".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("path=/changegrid/groups/g/control");
    }
}
