package io.changegrid.gridkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.gridkit.server.MariaDbConfig.BinlogFormat;
import io.changegrid.gridkit.server.MariaDbConfig.BinlogRowImage;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MariaDbConfigTest {

    @Test
    void shouldUseRowFullAndServerIdOneWhenNothingIsSet() {
        var config = MariaDbConfig.defaults();

        assertThat(config.binlogFormat()).isEqualTo(BinlogFormat.ROW);
        assertThat(config.binlogRowImage()).isEqualTo(BinlogRowImage.FULL);
        assertThat(config.serverId()).isEqualTo(1);
        assertThat(config.extraOptions()).isEmpty();
    }

    @Test
    void shouldReportEveryProblemWhenSeveralSettingsAreInvalid() {
        var builder =
                MariaDbConfig.builder()
                        .serverId(0)
                        .binlogFormat(null)
                        .extraOption("--max-connections=20")
                        .extraOption("port=3307")
                        .extraOption("--loose_datadir=/var/lib/mysql")
                        .startupTimeout(Duration.ZERO);

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("serverId: value=0, expected 1..4294967295")
                .hasMessageContaining("binlogFormat: value=null")
                .hasMessageContaining(
                        "extraOptions[1]: value=port=3307, expected --name or --name=value")
                .hasMessageContaining(
                        "extraOptions[2]: value=--loose_datadir=/var/lib/mysql, reason=managed by"
                                + " the fixture")
                .hasMessageContaining("startupTimeout: value=PT0S")
                .hasMessageNotContaining("extraOptions[0]");
    }

    @Test
    void shouldNotChangeWhenBuilderIsReused() {
        var builder = MariaDbConfig.builder().extraOption("--gtid-strict-mode=ON");
        var first = builder.build();

        builder.extraOption("--max-connections=20");

        assertThat(first.extraOptions()).containsExactly("--gtid-strict-mode=ON");
    }
}
