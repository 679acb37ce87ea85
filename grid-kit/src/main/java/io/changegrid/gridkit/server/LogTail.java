package io.changegrid.gridkit.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The last lines of a server's log, for the message of a start failure: the reason a server died is
 * almost always in its final lines, and a test report should show it without a trip to disk.
 */
final class LogTail {
    private LogTail() {}

    static String of(Path file, int maxLines) {
        if (!Files.isRegularFile(file)) {
            return "    (no log at " + file + ")";
        }
        String text;
        try {
            // Decoded leniently: a half-written or non-UTF-8 line must not hide the others.
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "    (cannot read " + file + ": " + e + ")";
        }
        var lines = text.lines().toArray(String[]::new);
        if (lines.length == 0) {
            return "    (" + file + " is empty)";
        }
        return Arrays.stream(lines, Math.max(0, lines.length - maxLines), lines.length)
                .map(line -> "    " + line)
                .collect(Collectors.joining("\n"));
    }
}
