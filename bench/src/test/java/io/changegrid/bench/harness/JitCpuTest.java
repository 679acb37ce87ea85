package io.changegrid.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class JitCpuTest {

    @Test
    void aCompilerThreadsTicksAreItsUserAndSystemTime() {
        // A line of /proc/<pid>/task/<tid>/stat of a relay's C2 thread: the name holds a space.
        String c2 =
                "9507 (C2 CompilerThre) S 9463 9463 4248 0 -1 1077936192 61288 0 0 0 143 27 0 0 20"
                        + " 0 21 0 433250 3152162816 128263 18446744073709551615 1 1 0 0 0 0 0"
                        + " 4096 17612 0 0 0 -1 1 0 0 0 0 0 0 0 0 0 0 0 0 0";

        assertThat(JitCpu.compilerTicks(c2)).isEqualTo(170);
        assertThat(JitCpu.compilerTicks(c2.replace("C2 CompilerThre", "C1 CompilerThre")))
                .isEqualTo(170);
        assertThat(JitCpu.compilerTicks(c2.replace("C2 CompilerThre", "relay-fetcher"))).isZero();
    }

    @Test
    void aLineWithoutItsFieldsIsRefusedNamingIt() {
        assertThatThrownBy(() -> JitCpu.compilerTicks("9507 (C2 CompilerThre) S 1 2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line=9507 (C2 CompilerThre) S 1 2");
        assertThatThrownBy(() -> JitCpu.compilerTicks("no name here"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a /proc stat line");
    }

    @Test
    void thisJvmsCompilersHaveWorkedAndTheirTimeNeverGoesBack() {
        long pid = ProcessHandle.current().pid();
        OptionalDouble first = JitCpu.seconds(pid);

        assertThat(first.isPresent()).isEqualTo(Files.isDirectory(Path.of("/proc/self/task")));
        if (first.isPresent()) {
            // The test runner compiled a good deal before this test ran.
            assertThat(first.getAsDouble()).isGreaterThan(0);
            assertThat(JitCpu.seconds(pid).getAsDouble())
                    .isGreaterThanOrEqualTo(first.getAsDouble());
        }
    }
}
