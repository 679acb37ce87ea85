package io.changegrid.gridkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MariaDbBinariesTest {

    @Test
    void shouldNameThePackageToInstallWhenServerIsMissing(@TempDir Path empty) {
        assertThatThrownBy(() -> MariaDbBinaries.locate(List.of(empty)))
                .isInstanceOf(FixtureStartException.class)
                .hasMessageContaining("missing=[mariadbd, mariadb-install-db]")
                .hasMessageContaining("searched=[" + empty + "]")
                .hasMessageContaining("apt-get install -y mariadb-server");
    }

    @Test
    void shouldFindBothProgramsWhenTheyAreInDifferentDirectories(@TempDir Path root)
            throws IOException {
        var sbin = Files.createDirectory(root.resolve("sbin"));
        var bin = Files.createDirectory(root.resolve("bin"));
        var server = executable(sbin.resolve("mariadbd"));
        var installDb = executable(bin.resolve("mariadb-install-db"));

        var binaries = MariaDbBinaries.locate(List.of(sbin, bin));

        assertThat(binaries).isEqualTo(new MariaDbBinaries(server, installDb));
    }

    private static Path executable(Path file) throws IOException {
        return Files.createFile(
                file,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
}
