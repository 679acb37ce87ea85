package io.changegrid.protocol.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ZooKeeperChrootTest {

    @Test
    void shouldFindTheChrootAfterTheServers() {
        assertThat(ZooKeeperChroot.of("zk1:2181,zk2:2181/changegrid/prod"))
                .isEqualTo("/changegrid/prod");
        assertThat(ZooKeeperChroot.of("zk1:2181/changegrid")).isEqualTo("/changegrid");
    }

    @Test
    void shouldFindNoneWhenTheConnectStringHasNoPath() throws Exception {
        assertThat(ZooKeeperChroot.of("zk1:2181,zk2:2181")).isEmpty();
        assertThat(ZooKeeperChroot.of("zk1:2181/")).isEmpty();
        // Nothing to create, so no server is asked.
        assertThat(ZooKeeperChroot.create("127.0.0.1:1", Duration.ofMillis(1), null)).isFalse();
    }
}
