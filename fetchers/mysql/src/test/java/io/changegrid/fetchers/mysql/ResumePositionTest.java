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
    void shouldReadBackTimelineAndServerWhenBothWereStored() {
        SourceIdentity server = new SourceIdentity(2, "/data/my sql/binlog", "");
        ResumePosition position =
                new ResumePosition(
                        new BinlogPosition("binlog.000003", 77),
                        "0-1-42",
                        new GtidTimeline(0),
                        server);

        assertThat(position.toString())
                .isEqualTo(
                        "binlog.000003:77 gtid=0-1-42 timeline=gtid:0"
                                + " server=server_id=2;binlog=/data/my sql/binlog");
        assertThat(ResumePosition.parse(position.toString())).isEqualTo(position);
    }

    @Test
    void shouldReadBackAMySqlServerWhenItHasAUuid() {
        SourceIdentity server =
                new SourceIdentity(7, "/var/lib/mysql/mysql-bin", "3e11fa47-71ca-11e1-9e33");
        ResumePosition position =
                new ResumePosition(new BinlogPosition("mysql-bin.000001", 4), "", null, server);

        assertThat(ResumePosition.parse(position.toString())).isEqualTo(position);
        assertThat(position.timeline()).isNull();
    }

    @Test
    void shouldNameTheTextWhenItIsNoPosition() {
        assertThatThrownBy(() -> ResumePosition.parse("generated:6 gtid=1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("generated");
    }
}
