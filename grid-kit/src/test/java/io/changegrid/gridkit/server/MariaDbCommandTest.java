package io.changegrid.gridkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.MariaDbConfig.BinlogFormat;
import io.changegrid.gridkit.server.MariaDbConfig.BinlogRowImage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MariaDbCommandTest {
    private static final MariaDbBinaries BINARIES =
            new MariaDbBinaries(
                    Path.of("/usr/sbin/mariadbd"), Path.of("/usr/bin/mariadb-install-db"));
    private static final MariaDbLayout LAYOUT =
            new MariaDbLayout(Path.of("/tmp/changegrid-mariadb/mariadbd-1"));

    @Test
    void shouldIgnoreMachineConfigWhenBuildingEitherCommand() {
        var server =
                MariaDbCommand.server(BINARIES, MariaDbConfig.defaults(), LAYOUT, 40000, false);
        var install = MariaDbCommand.install(BINARIES, LAYOUT, false);

        assertThat(server).startsWith("/usr/sbin/mariadbd", "--no-defaults");
        assertThat(install).startsWith("/usr/bin/mariadb-install-db", "--no-defaults");
    }

    @Test
    void shouldListenOnLoopbackWithRowBinlogWhenConfigIsDefault() {
        var command =
                MariaDbCommand.server(BINARIES, MariaDbConfig.defaults(), LAYOUT, 40000, false);

        assertThat(command)
                .contains(
                        "--bind-address=127.0.0.1",
                        "--port=40000",
                        "--datadir=/tmp/changegrid-mariadb/mariadbd-1/data",
                        "--socket=/tmp/changegrid-mariadb/mariadbd-1/mariadbd.sock",
                        "--log-error=/tmp/changegrid-mariadb/mariadbd-1/error.log",
                        "--log-bin=binlog",
                        "--binlog-format=ROW",
                        "--binlog-row-image=FULL",
                        "--server-id=1",
                        "--skip-name-resolve",
                        "--performance-schema=OFF")
                .doesNotContain("--user=root");
    }

    @Test
    void shouldPutExtraOptionsLastWhenConfigured() {
        var config =
                MariaDbConfig.builder()
                        .binlogFormat(BinlogFormat.STATEMENT)
                        .binlogRowImage(BinlogRowImage.MINIMAL)
                        .serverId(42)
                        .extraOption("--max-connections=20")
                        .build();

        var command = MariaDbCommand.server(BINARIES, config, LAYOUT, 40000, true);

        assertThat(command)
                .contains(
                        "--user=root",
                        "--binlog-format=STATEMENT",
                        "--binlog-row-image=MINIMAL",
                        "--server-id=42")
                .endsWith("--max-connections=20");
    }
}
