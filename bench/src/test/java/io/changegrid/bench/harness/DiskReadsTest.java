package io.changegrid.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DiskReadsTest {

    @Test
    void sectorsReadIsTheThirdFieldOfTheStatLine() {
        // A line of /sys/block/vda/stat as this machine wrote it (padded, 17 fields).
        String line =
                "  123751     8867 52893490   328003  1034676   298816 135805672  1426041        0"
                        + "    83240  1761971    10843       28 39043920     5012    42166     2914\n";

        assertThat(DiskReads.sectorsRead(line)).isEqualTo(52_893_490L);
    }

    @Test
    void aLineWithoutTheFieldIsRefusedNamingIt() {
        assertThatThrownBy(() -> DiskReads.sectorsRead("12 34"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line=12 34");
    }

    @Test
    void theMachinesReadsNeverGoBack() {
        OptionalLong first = DiskReads.bytes();
        OptionalLong second = DiskReads.bytes();

        assertThat(first.isPresent()).isEqualTo(Files.isDirectory(Path.of("/sys/block")));
        if (first.isPresent()) {
            assertThat(second.getAsLong()).isGreaterThanOrEqualTo(first.getAsLong());
            assertThat(DiskReads.megabytesBetween(first, second)).isGreaterThanOrEqualTo(0);
        }
        assertThat(DiskReads.megabytesBetween(OptionalLong.empty(), second)).isEqualTo(-1);
    }
}
