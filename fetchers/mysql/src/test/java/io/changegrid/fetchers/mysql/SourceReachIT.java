package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.fetchers.SourceUnavailableException;
import io.changegrid.gridkit.server.FreePort;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a fetcher tells a source that cannot be reached now (the relay waits for it) from one
 * that refuses the relay (the start fails).
 */
class SourceReachIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir Path state;

    @Test
    void shouldSayTheSourceIsUnavailableWhenNothingListensOnItsPort() {
        int closed = FreePort.pick();

        assertThatThrownBy(() -> open(FreePort.HOST, closed, MARIADB.server().password()))
                .isInstanceOf(SourceUnavailableException.class)
                .hasMessageContaining("source unreachable: address=127.0.0.1:" + closed)
                .hasMessageContaining("sqlState=08");
    }

    @Test
    void shouldSayTheSourceIsUnavailableWhenItsHostNameDoesNotResolve() {
        assertThatThrownBy(() -> open("no-such-source.invalid", 3306, "x"))
                .isInstanceOf(SourceUnavailableException.class)
                .hasMessageContaining("address=no-such-source.invalid:3306");
    }

    @Test
    void shouldFailWithTheServersAnswerWhenTheCredentialsAreWrong() {
        MariaDbServer server = MARIADB.server();

        assertThatThrownBy(() -> open(server.host(), server.port(), "not-the-password"))
                .isInstanceOf(SQLException.class)
                .isNotInstanceOf(SourceUnavailableException.class)
                .hasMessageContaining("Access denied for user");
    }

    private BinlogFetcher open(String host, int port, String password) throws Exception {
        BinlogFetcherConfig config =
                new BinlogFetcherConfig(
                        host,
                        port,
                        MARIADB.server().user(),
                        password,
                        9_061,
                        1,
                        TableFilter.all(),
                        CapturePlan.everything(),
                        new StartPosition.Current(),
                        Duration.ofMillis(200),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(1),
                        1 << 20);
        return BinlogFetcher.open(config, state, null, new CollectingSink());
    }
}
