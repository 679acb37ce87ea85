package io.changegrid.gridkit.server;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * Where the installed MariaDB server's programs are. Looked up on the usual Debian/Ubuntu paths and
 * then on {@code PATH}, so a machine without MariaDB gets a message that says what to install.
 *
 * @param server {@code mariadbd}
 * @param installDb {@code mariadb-install-db}
 */
record MariaDbBinaries(Path server, Path installDb) {
    static final String SERVER = "mariadbd";
    static final String INSTALL_DB = "mariadb-install-db";
    static final String INSTALL_HINT =
            "install the MariaDB server: apt-get install -y mariadb-server (Debian/Ubuntu)";

    private static final List<String> USUAL_DIRS =
            List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin");

    static MariaDbBinaries locate() {
        var dirs = new LinkedHashSet<Path>();
        USUAL_DIRS.forEach(dir -> dirs.add(Path.of(dir)));
        var path = System.getenv("PATH");
        if (path != null) {
            for (var dir : path.split(File.pathSeparator)) {
                if (!dir.isBlank()) {
                    dirs.add(Path.of(dir));
                }
            }
        }
        return locate(List.copyOf(dirs));
    }

    /**
     * @throws FixtureStartException naming what is missing, where it was looked for, and what to
     *     install
     */
    static MariaDbBinaries locate(List<Path> searchDirs) {
        var server = find(SERVER, searchDirs);
        var installDb = find(INSTALL_DB, searchDirs);
        if (server.isPresent() && installDb.isPresent()) {
            return new MariaDbBinaries(server.get(), installDb.get());
        }
        var missing = new ArrayList<String>();
        if (server.isEmpty()) {
            missing.add(SERVER);
        }
        if (installDb.isEmpty()) {
            missing.add(INSTALL_DB);
        }
        throw new FixtureStartException(
                "MariaDB server not installed: missing="
                        + missing
                        + ", searched="
                        + searchDirs
                        + "; "
                        + INSTALL_HINT);
    }

    private static Optional<Path> find(String program, List<Path> dirs) {
        return dirs.stream()
                .map(dir -> dir.resolve(program))
                .filter(Files::isRegularFile)
                .filter(Files::isExecutable)
                .findFirst();
    }
}
