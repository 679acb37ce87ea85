package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResumePositionTest {

    @Test
    void shouldReadBackWhatItWritesWhenTheSourceHasGtids() {
        for (String gtid : new String[] {"0-1-42", "3e11fa47-71ca-11e1-9e33-c80aa9429562:23"}) {
            ResumePosition position =
                    new ResumePosition(new BinlogPosition("mysql-bin.000007", 1234), gtid);

            assertThat(position.toString()).isEqualTo("mysql-bin.000007:1234 gtid=" + gtid);
            assertThat(ResumePosition.parse(position.toString())).isEqualTo(position);
        }
    }

    @Test
    void shouldReadABareFileAndOffsetWhenNoGtidWasStored() {
        ResumePosition position = ResumePosition.parse("mysql-bin.000007:1234");

        assertThat(position.position()).isEqualTo(new BinlogPosition("mysql-bin.000007", 1234));
        assertThat(position.gtid()).isEmpty();
        assertThat(position.toString()).isEqualTo("mysql-bin.000007:1234");
    }

    @Test
    void shouldNameTheTextWhenItIsNoPosition() {
        assertThatThrownBy(() -> ResumePosition.parse("generated:6 gtid=1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("generated");
    }
}
