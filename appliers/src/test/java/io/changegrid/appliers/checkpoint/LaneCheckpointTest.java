package io.changegrid.appliers.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LaneCheckpointTest {

    @Test
    void shouldCoverEventsUpToThePartialIndexWhenABarrierCutTheTransaction() {
        LaneCheckpoint lane = LaneCheckpoint.within(100, 120, 4);
        assertThat(lane.covers(100, 9)).isTrue();
        assertThat(lane.covers(120, 4)).isTrue();
        assertThat(lane.covers(120, 5)).isFalse();
        assertThat(lane.covers(130, 0)).isFalse();
    }

    @Test
    void shouldNeverMoveBackwardsWhenMerged() {
        LaneCheckpoint complete = LaneCheckpoint.after(120);
        LaneCheckpoint partial = LaneCheckpoint.within(100, 120, 4);
        assertThat(partial.max(complete)).isEqualTo(complete);
        assertThat(complete.max(partial)).isEqualTo(complete);
        assertThat(partial.max(LaneCheckpoint.within(100, 120, 7)))
                .isEqualTo(LaneCheckpoint.within(100, 120, 7));
        assertThat(LaneCheckpoint.within(100, 120, 7).max(partial))
                .isEqualTo(LaneCheckpoint.within(100, 120, 7));
        assertThat(LaneCheckpoint.after(100).max(partial)).isEqualTo(partial);
        assertThat(partial.max(LaneCheckpoint.within(-1, 120, 2))).isEqualTo(partial);
    }

    @Test
    void shouldDropThePartialPartWhenTheScnCoversIt() {
        assertThat(LaneCheckpoint.within(120, 120, 4)).isEqualTo(LaneCheckpoint.after(120));
        assertThat(LaneCheckpoint.within(100, 120, -1)).isEqualTo(LaneCheckpoint.after(100));
        assertThat(LaneCheckpoint.after(120).partial()).isFalse();
    }
}
