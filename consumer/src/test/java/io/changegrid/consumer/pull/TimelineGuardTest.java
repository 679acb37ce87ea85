package io.changegrid.consumer.pull;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineGuardTest {

    private static final URI RELAY = URI.create("http://relay-a:7070/");
    private final List<String> adopted = new ArrayList<>();

    @Test
    void shouldStopWithBothTimelinesNamedWhenTheRelayServesAnother() {
        TimelineGuard guard =
                new TimelineGuard("binlog:server_id=1;binlog=/a/binlog", adopted::add);

        String problem =
                guard.judge(RELAY, headers(10, 20, "binlog:server_id=2;binlog=/b/binlog"), 10);

        assertThat(problem)
                .contains("relay=" + RELAY)
                .contains("relayTimeline=binlog:server_id=2;binlog=/b/binlog")
                .contains("checkpointTimeline=binlog:server_id=1;binlog=/a/binlog")
                .contains("checkpoint=10")
                .contains("bootstrap");
    }

    @Test
    void shouldContinueWhenTheRelayServesTheCheckpointsTimeline() {
        TimelineGuard guard = new TimelineGuard("mariadb-gtid:domain=0", adopted::add);

        assertThat(guard.judge(RELAY, headers(10, 20, "mariadb-gtid:domain=0"), 10)).isNull();
        assertThat(adopted).isEmpty();
    }

    @Test
    void shouldAdoptTheFirstTimelineWhenTheCheckpointNamesNone() {
        TimelineGuard guard = new TimelineGuard(null, adopted::add);

        assertThat(guard.judge(RELAY, headers(10, 20, "mariadb-gtid:domain=0"), 10)).isNull();
        assertThat(guard.judge(RELAY, headers(10, 20, "binlog:server_id=3"), 10)).isNotNull();
        assertThat(adopted).containsExactly("mariadb-gtid:domain=0");
    }

    @Test
    void shouldJudgeNothingWhenTheRelayNamesNoTimeline() {
        TimelineGuard guard = new TimelineGuard("mariadb-gtid:domain=0", adopted::add);

        assertThat(guard.judge(RELAY, headers(10, 20, ""), 10)).isNull();
        assertThat(guard.timeline()).isEqualTo("mariadb-gtid:domain=0");
    }

    private static StreamHeaders headers(long lastScn, long newestScn, String timeline) {
        return new StreamHeaders(lastScn, newestScn, 1, "none", 0, timeline);
    }
}
