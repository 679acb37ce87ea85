package io.changegrid.policy.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.policy.conflict.Resolution.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConflictResolverTest {

    static final RowVersion OLD = new RowVersion(1, 100, 1_000);
    static final RowVersion NEW = new RowVersion(2, 50, 2_000);

    @Test
    void shouldApplyWhenTheTargetHasNoRow() {
        for (ConflictStrategy strategy : ConflictStrategy.values()) {
            assertThat(strategy.resolver(List.of(1), (i, c, r) -> {}).resolve(NEW, null))
                    .isEqualTo(Resolution.APPLY);
        }
    }

    @Test
    void shouldKeepTheLaterCommitWhenResolvingByCommitTime() {
        ConflictResolver lww = new ConflictResolver.LastWriterWinsByCommitTime();
        assertThat(lww.resolve(NEW, OLD)).isEqualTo(Resolution.APPLY);
        assertThat(lww.resolve(OLD, NEW).outcome()).isEqualTo(Outcome.SKIP);
        assertThat(lww.resolve(OLD, OLD).outcome()).as("replay").isEqualTo(Outcome.SKIP);
        RowVersion tieLowSource = new RowVersion(1, 7, 5_000);
        RowVersion tieHighSource = new RowVersion(2, 9, 5_000);
        assertThat(lww.resolve(tieLowSource, tieHighSource)).isEqualTo(Resolution.APPLY);
        assertThat(lww.resolve(tieHighSource, tieLowSource).outcome()).isEqualTo(Outcome.SKIP);
    }

    @Test
    void shouldKeepTheHigherScnWhenResolvingByScn() {
        ConflictResolver byScn = new ConflictResolver.LastWriterWinsByScn();
        assertThat(byScn.resolve(OLD, NEW)).isEqualTo(Resolution.APPLY);
        assertThat(byScn.resolve(NEW, OLD).outcome()).isEqualTo(Outcome.SKIP);
        assertThat(byScn.resolve(OLD, OLD).outcome()).isEqualTo(Outcome.SKIP);
    }

    @Test
    void shouldPreferListedSourcesWhenResolvingBySourcePriority() {
        ConflictResolver priority = new ConflictResolver.SourcePriority(List.of(1, 2));
        assertThat(priority.resolve(OLD, NEW))
                .as("source 1 outranks a newer source 2")
                .isEqualTo(Resolution.APPLY);
        assertThat(priority.resolve(NEW, OLD).outcome()).isEqualTo(Outcome.SKIP);
        RowVersion unlisted = new RowVersion(3, 1, 9_000);
        assertThat(priority.resolve(unlisted, NEW).outcome()).isEqualTo(Outcome.SKIP);
        assertThat(priority.resolve(new RowVersion(1, 200, 3_000), OLD))
                .as("same rank: later wins")
                .isEqualTo(Resolution.APPLY);
    }

    @Test
    void shouldRecordTheRejectedChangeWhenRejecting() {
        List<String> recorded = new ArrayList<>();
        ConflictResolver reject =
                new ConflictResolver.RejectAndRecord(
                        (in, cur, reason) ->
                                recorded.add(in.sourceId() + ">" + cur.sourceId() + ":" + reason));
        Resolution resolution = reject.resolve(NEW, OLD);
        assertThat(resolution.outcome()).isEqualTo(Outcome.REJECT);
        assertThat(resolution.reason())
                .isEqualTo("row exists: incoming=" + NEW + ", current=" + OLD);
        assertThat(recorded).containsExactly("2>1:" + resolution.reason());
        assertThat(reject.resolve(OLD, OLD).outcome()).isEqualTo(Outcome.SKIP);
        assertThat(recorded).hasSize(1);
    }
}
