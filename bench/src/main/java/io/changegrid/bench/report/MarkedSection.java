package io.changegrid.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The part of a markdown file between {@value #BEGIN} and {@value #END}: the report replaces it and
 * never touches the text around it.
 */
final class MarkedSection {

    static final String BEGIN = "<!-- report:begin -->";
    static final String END = "<!-- report:end -->";

    private MarkedSection() {}

    /**
     * Replaces what is between the markers with {@code content}.
     *
     * @throws IllegalStateException naming the file if the markers are missing or out of order
     */
    static void replace(Path file, String content) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(
                    "report markers missing or out of order: file="
                            + file
                            + ", expected "
                            + BEGIN
                            + " ... "
                            + END);
        }
        String updated =
                text.substring(0, begin + BEGIN.length())
                        + "\n"
                        + content
                        + (content.endsWith("\n") ? "" : "\n")
                        + text.substring(end);
        Files.writeString(file, updated, StandardCharsets.UTF_8);
    }
}
