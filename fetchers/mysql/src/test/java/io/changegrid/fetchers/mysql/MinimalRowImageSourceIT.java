package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.policy.capture.TableFilter;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source that leaves columns out of its row images would hand consumers NULLs that are not in the
 * table; the fetcher refuses it at start, naming the setting.
 */
class MinimalRowImageSourceIT {

    @RegisterExtension
    static final MariaDbExtension MARIADB =
            new MariaDbExtension(
                    MariaDbConfig.builder()
                            .binlogRowImage(MariaDbConfig.BinlogRowImage.MINIMAL)
                            .build());

    @TempDir Path state;

    @Test
    void shouldRefuseToStartWithTheSettingNamedWhenRowImagesAreMinimal() {
        BinlogFetcherConfig config =
                RunningFetcher.config(
                        MARIADB.server(), TableFilter.all(), new StartPosition.Current(), 1 << 20);

        assertThatThrownBy(() -> BinlogFetcher.open(config, state, null, new CollectingSink()))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("binlog_row_image must be FULL: binlog_row_image=MINIMAL")
                .hasMessageContaining("set binlog_row_image=FULL");
    }
}
