package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GtidTimelineTest {

    private static final GtidTimeline DOMAIN_0 = new GtidTimeline(0);
    private static final BinlogPosition SOMEWHERE = new BinlogPosition("binlog.000002", 900);

    @Test
    void shouldGiveTheSameScnWhenTheSameGtidIsReadFromAnotherServer() {
        long onOldPrimary = DOMAIN_0.scn(new BinlogPosition("binlog.000001", 1234), "0-1-42");
        long onPromotedReplica = DOMAIN_0.scn(new BinlogPosition("binlog.000007", 88), "0-1-42");

        assertThat(onPromotedReplica).isEqualTo(onOldPrimary);
    }

    @Test
    void shouldKeepGrowingWhenThePromotedServerContinuesTheSequence() {
        long last = DOMAIN_0.scn(SOMEWHERE, "0-1-42");
        long firstOfNewPrimary = DOMAIN_0.scn(SOMEWHERE, "0-2-43");

        assertThat(firstOfNewPrimary).isGreaterThan(last);
    }

    @Test
    void shouldPlaceTheHeartbeatBetweenTwoTransactionsWhenAfterOne() {
        ResumePosition after42 = new ResumePosition(SOMEWHERE, "0-1-42", DOMAIN_0, null);
        long heartbeat = DOMAIN_0.next(after42) - 1;

        assertThat(heartbeat)
                .isGreaterThan(DOMAIN_0.scn(SOMEWHERE, "0-1-42"))
                .isLessThan(DOMAIN_0.scn(SOMEWHERE, "0-1-43"));
        assertThat(DOMAIN_0.next(after42)).isEqualTo(DOMAIN_0.scn(SOMEWHERE, "0-2-43"));
    }

    @Test
    void shouldLieAboveEveryPositionScnWhenComparedWithABinlogTimeline() {
        long highestPosition = new BinlogPosition("binlog.999999999", 0xFFFF_FFFFL).scn();
        long firstGtid = DOMAIN_0.next(new ResumePosition(SOMEWHERE, "", DOMAIN_0, null)) - 1;

        assertThat(firstGtid).isGreaterThan(highestPosition);
    }

    @Test
    void shouldRefuseATransactionWhenItIsOfAnotherDomain() {
        assertThatThrownBy(() -> DOMAIN_0.scn(SOMEWHERE, "1-1-5"))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("gtid=1-1-5")
                .hasMessageContaining("timelineDomain=0");
    }

    @Test
    void shouldRefuseATransactionWhenItHasNoGtid() {
        assertThatThrownBy(() -> DOMAIN_0.scn(SOMEWHERE, ""))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("position=binlog.000002:900");
    }

    @Test
    void shouldNameTheSameTimelineWhenRelaysReadDifferentServers() {
        assertThat(GtidTimeline.parse(DOMAIN_0.toString())).isEqualTo(DOMAIN_0);
        assertThat(DOMAIN_0.identity()).isEqualTo("mariadb-gtid:domain=0");
        assertThat(new Timeline.OfPosition(new SourceIdentity(1, "/d/é b", "")).identity())
                .isEqualTo("binlog:server_id=1;binlog=/d/%C3%A9%20b");
    }
}
