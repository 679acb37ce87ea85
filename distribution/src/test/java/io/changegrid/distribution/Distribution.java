package io.changegrid.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The archive this module's {@code package} phase built, unpacked where a test wants it. */
final class Distribution {

    private final Path home;

    private Distribution(Path home) {
        this.home = home;
    }

    /** Unpacks {@code target/changegrid-<version>.tar.gz} into {@code directory} with tar. */
    static Distribution unpack(Path directory) throws IOException, InterruptedException {
        Path archive;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            List<Path> archives =
                    files.filter(
                                    f ->
                                            f.getFileName()
                                                    .toString()
                                                    .matches("changegrid-.*\\.tar\\.gz"))
                            .toList();
            if (archives.size() != 1) {
                throw new IllegalStateException(
                        "expected one changegrid-*.tar.gz in target/ (run mvn package): "
                                + archives);
            }
            archive = archives.get(0);
        }
        Process tar =
                new ProcessBuilder(
                                "tar",
                                "-xzf",
                                archive.toAbsolutePath().toString(),
                                "-C",
                                directory.toString())
                        .redirectErrorStream(true)
                        .start();
        String output = new String(tar.getInputStream().readAllBytes());
        if (tar.waitFor() != 0) {
            throw new IllegalStateException("tar failed: " + output);
        }
        try (Stream<Path> unpacked = Files.list(directory)) {
            return new Distribution(unpacked.filter(Files::isDirectory).findFirst().orElseThrow());
        }
    }

    Path home() {
        return home;
    }

    Path bin(String launcher) {
        return home.resolve("bin").resolve(launcher);
    }

    Path config(String file) {
        return home.resolve("config").resolve(file);
    }

    /** Starts {@code bin/<launcher> args...}, its output (both streams) appended to {@code log}. */
    Process start(String launcher, Path log, List<String> args) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        command.add(bin(launcher).toString());
        command.addAll(args);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }
}
