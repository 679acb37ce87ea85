package io.changegrid.fetchers.goldengate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The trail position and resume position forms: what a restart and every replica rely on. */
class TrailPositionTest {

    @Test
    void shouldMakeTheScnFromSequenceAndRbaLikeTheBinlogRuleWhenParsingPos() {
        assertThat(TrailPosition.scn("00000000030000004096")).isEqualTo(3L << 32 | 4096);
        assertThat(TrailPosition.text(3L << 32 | 4096)).isEqualTo("00000000030000004096");
        assertThat(TrailPosition.scn("00000000040000000000"))
                .isGreaterThan(TrailPosition.scn("00000000034294967295"));
    }

    @Test
    void shouldRefusePosWhenItIsNotTwentyDigitsOrOutOfRange() {
        assertThatThrownBy(() -> TrailPosition.scn("3000004096"))
                .hasMessage("pos is not 20 digits (10 sequence + 10 RBA): pos=3000004096");
        assertThatThrownBy(() -> TrailPosition.scn("0000000003000000409x"))
                .hasMessageContaining("pos=0000000003000000409x");
        assertThatThrownBy(() -> TrailPosition.scn("00000000030004294967296"))
                .hasMessageContaining("20 digits");
        assertThatThrownBy(() -> TrailPosition.scn("00000000004294967296"))
                .hasMessageContaining("out of range");
    }

    @Test
    void shouldRoundTripTheResumePositionWhenRendered() {
        ResumePoint point = new ResumePoint(4L << 32 | 2000, 3L << 32 | 1416, 2353);
        assertThat(point.toString()).isEqualTo("00000000040000002000@00000000030000001416+2353");
        assertThat(ResumePoint.parse(point.toString())).isEqualTo(point);
        assertThatThrownBy(() -> ResumePoint.parse("0/16B3748"))
                .hasMessageContaining("not a GoldenGate resume position");
        assertThatThrownBy(() -> ResumePoint.parse("00000000040000002000@00000000030000001416+-1"))
                .hasMessageContaining("negative offset");
    }
}
