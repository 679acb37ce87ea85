package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A source whose binlog is statement-based cannot be captured row by row, and says so at start. */
class StatementFormatSourceIT {

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            new MariaDbExtension(
                    MariaDbConfig.builder()
                            .binlogFormat(MariaDbConfig.BinlogFormat.STATEMENT)
                            .build());

    @TempDir Path state;

    @Test
    void shouldRefuseToStartWithTheSettingNamedWhenTheBinlogIsStatementBased() {
        BinlogFetcherConfig config =
                RunningFetcher.config(
                        MARIADB.server(), TableFilter.all(), new StartPosition.Current(), 1 << 20);

        assertThatThrownBy(() -> BinlogFetcher.open(config, state, null, new CollectingSink()))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("binlog_format must be ROW: binlog_format=STATEMENT");
    }
}
