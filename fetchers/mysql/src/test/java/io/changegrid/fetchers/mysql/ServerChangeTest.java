package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerChangeTest {

    private static final SourceIdentity OLD = new SourceIdentity(1, "/data/a/binlog", "");
    private static final SourceIdentity NEW = new SourceIdentity(2, "/data/b/binlog", "");
    private static final BinlogPosition AT = new BinlogPosition("binlog.000001", 4711);
    private static final String ADDRESS = "db-vip:3306";

    @Test
    void shouldRefuseNamingBothServersWhenResumingByPositionOnAnotherServer() {
        ResumePosition saved = new ResumePosition(AT, "0-1-42", null, OLD);

        assertThatThrownBy(() -> ServerChange.atStart(ResumeMode.POSITION, saved, NEW, ADDRESS))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("saved=server_id=1;binlog=/data/a/binlog")
                .hasMessageContaining("found=server_id=2;binlog=/data/b/binlog")
                .hasMessageContaining("address=db-vip:3306")
                .hasMessageContaining("source.resume: gtid");
    }

    @Test
    void shouldFollowTheNewServerWhenResumingByGtid() {
        ResumePosition saved = new ResumePosition(AT, "0-1-42", new GtidTimeline(0), OLD);

        ResumePosition resumed = ServerChange.atStart(ResumeMode.GTID, saved, NEW, ADDRESS);

        assertThat(resumed.server()).isEqualTo(NEW);
        assertThat(resumed.gtid()).isEqualTo("0-1-42");
        assertThat(resumed.timeline()).isEqualTo(new GtidTimeline(0));
    }

    @Test
    void shouldResumeWhenTheServerIsTheSavedOne() {
        ResumePosition saved = new ResumePosition(AT, "", null, OLD);

        assertThat(ServerChange.atStart(ResumeMode.POSITION, saved, OLD, ADDRESS)).isEqualTo(saved);
    }

    @Test
    void shouldTakeTheServerFoundWhenAnOlderRelaySavedNone() {
        ResumePosition saved = ResumePosition.parse("binlog.000001:4711 gtid=0-1-42");

        assertThat(ServerChange.atStart(ResumeMode.POSITION, saved, NEW, ADDRESS).server())
                .isEqualTo(NEW);
    }

    @Test
    void shouldRefuseAStateOfTheOtherTimelineWhenTheSettingChanged() {
        ResumePosition byPosition = new ResumePosition(AT, "0-1-42", null, OLD);
        ResumePosition byGtid = new ResumePosition(AT, "0-1-42", new GtidTimeline(0), OLD);

        assertThatThrownBy(() -> ServerChange.atStart(ResumeMode.GTID, byPosition, OLD, ADDRESS))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("binlog-position timeline")
                .hasMessageContaining("source.resume is gtid");
        assertThatThrownBy(() -> ServerChange.atStart(ResumeMode.POSITION, byGtid, OLD, ADDRESS))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("GTID timeline")
                .hasMessageContaining("source.resume is position");
    }
}
