package io.changegrid.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ResultFileTest {

    @Test
    void shouldKeepTheMysqlFileWhenTheSourceIsMysql() {
        assertThat(ResultFile.defaultFor(null, "e2e", "mysql"))
                .isEqualTo(Path.of("bench/results/e2e.jsonl"));
    }

    @Test
    void shouldNameTheSourceTypeInTheFileWhenTheSourceIsAnotherType() {
        assertThat(ResultFile.defaultFor(null, "e2e", "postgresql"))
                .isEqualTo(Path.of("bench/results/e2e-postgresql.jsonl"));
        assertThat(ResultFile.defaultFor(null, "stage1", "goldengate"))
                .isEqualTo(Path.of("bench/results/stage1-goldengate.jsonl"));
    }

    @Test
    void shouldTakeTheGivenFileWhenOneIsGiven() {
        Path given = Path.of("/tmp/mine.jsonl");

        assertThat(ResultFile.defaultFor(given, "stage1", "postgresql")).isEqualTo(given);
    }
}
