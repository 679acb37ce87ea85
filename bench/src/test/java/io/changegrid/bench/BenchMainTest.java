package io.changegrid.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BenchMainTest {

    @Test
    void shouldListEveryBadOptionWhenSeveralAreWrong() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        int status;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            status =
                    BenchMain.execute(
                            "stage1",
                            "--records",
                            "0",
                            "--mix",
                            "60,30",
                            "--relays",
                            "0",
                            "--buffer-storage",
                            "disk");
        } finally {
            System.setErr(original);
        }

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--records: must be at least 1: value=0")
                .contains("--mix: mix must be insert,update,delete percentages")
                .contains("--relays: each must be 1..16: value=[0]")
                .contains("--buffer-storage: expected direct or mapped: value=disk");
    }

    @Test
    void shouldRefuseSeveralRelaysAndAGivenSourceWhenTheSourceIsPostgresql() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        int status;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            status =
                    BenchMain.execute(
                            "stage1",
                            "--source-type",
                            "postgresql",
                            "--relays",
                            "2",
                            "--source",
                            "db1:3306");
        } finally {
            System.setErr(original);
        }

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--source-type: postgresql runs one relay without policies")
                .contains("--source: only for --source-type mysql");
    }

    @Test
    void shouldRefuseMysqlSourceOptionsWhenEndToEndRunsOnPostgresql() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        int status;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            status =
                    BenchMain.execute(
                            "e2e",
                            "--source-type",
                            "postgresql",
                            "--source",
                            "db1:3306",
                            "--database",
                            "shop",
                            "--binlog-in-memory");
        } finally {
            System.setErr(original);
        }

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--source: only for --source-type mysql")
                .contains("--database: only for --source-type mysql")
                .contains("--binlog-in-memory: only for --source-type mysql");
    }

    @Test
    void shouldRefuseAnUnknownSourceTypeWhenEndToEnd() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        int status;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            status = BenchMain.execute("e2e", "--source-type", "goldengate");
        } finally {
            System.setErr(original);
        }

        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--source-type: must be mysql or postgresql");
    }
}
