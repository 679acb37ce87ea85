package io.changegrid.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A setting whose value lives elsewhere: {@code ${env:NAME}} (an environment variable) or {@code
 * ${file:/path}} (a file's content, one trailing line break dropped, as secret files written by
 * {@code echo} or mounted by an orchestrator end). Any value of any program's configuration may be
 * one, so that passwords stay out of YAML files and command lines (where {@code ps} shows them).
 *
 * <p>The whole value is the reference; text around it is not expanded, so a value that merely
 * contains {@code ${...}} is ambiguous and refused rather than half-resolved. A resolution failure
 * names the reference, never what it would have produced.
 *
 * @param text the reference as written, e.g. {@code ${file:/etc/changegrid/db.pass}}
 * @param scheme {@code env} or {@code file}
 * @param name the variable's name or the file's path
 */
public record ValueReference(String text, Scheme scheme, String name) {

    /** Where a reference points. */
    public enum Scheme {
        ENV,
        FILE
    }

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{(env|file):([^}]*)}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * The reference a value is, if it is one.
     *
     * @throws IllegalArgumentException if the value holds {@code ${env:} or ${file:} but is not
     *     exactly one well-formed reference
     */
    public static Optional<ValueReference> of(String value) {
        Matcher matcher = REFERENCE.matcher(value.strip());
        if (!matcher.matches()) {
            if (value.contains("${env:") || value.contains("${file:")) {
                throw new IllegalArgumentException(
                        "a reference must be the whole value, ${env:NAME} or ${file:/path}");
            }
            return Optional.empty();
        }
        Scheme scheme = matcher.group(1).equals("env") ? Scheme.ENV : Scheme.FILE;
        String name = matcher.group(2);
        if (scheme == Scheme.ENV && !ENV_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "not an environment variable name: letters, digits and _");
        }
        if (scheme == Scheme.FILE && !Path.of(name).isAbsolute()) {
            throw new IllegalArgumentException("the file must be an absolute path");
        }
        return Optional.of(new ValueReference(matcher.group(), scheme, name));
    }

    /**
     * The value referred to.
     *
     * @param environment the environment ({@code System::getenv} in a program)
     * @throws IllegalArgumentException naming the reference (never the value) when the variable is
     *     unset or the file cannot be read
     */
    public String resolve(UnaryOperator<String> environment) {
        return switch (scheme) {
            case ENV -> {
                String value = environment.apply(name);
                if (value == null) {
                    throw new IllegalArgumentException("environment variable not set");
                }
                yield value;
            }
            case FILE -> {
                try {
                    yield dropFinalLineBreak(
                            Files.readString(Path.of(name), StandardCharsets.UTF_8));
                } catch (NoSuchFileException e) {
                    throw new IllegalArgumentException("file not found");
                } catch (IOException e) {
                    throw new IllegalArgumentException(
                            "file not readable: " + e.getClass().getSimpleName());
                }
            }
        };
    }

    /**
     * A command-line option's value with its reference, if it is one, resolved: how a launcher
     * takes a password without it appearing in {@code ps}.
     *
     * @param option the option's name, for the error, e.g. {@code --source-password}
     * @throws IllegalArgumentException naming the option and the reference, never a value
     */
    public static String resolveOption(String option, String value) {
        if (value == null) {
            return null;
        }
        Optional<ValueReference> reference;
        try {
            reference = of(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "bad reference: option=" + option + ": " + e.getMessage(), e);
        }
        if (reference.isEmpty()) {
            return value;
        }
        try {
            return reference.get().resolve(System::getenv);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unresolved reference: option="
                            + option
                            + ", reference="
                            + reference.get()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private static String dropFinalLineBreak(String content) {
        if (content.endsWith("\r\n")) {
            return content.substring(0, content.length() - 2);
        }
        if (content.endsWith("\n")) {
            return content.substring(0, content.length() - 1);
        }
        return content;
    }

    @Override
    public String toString() {
        return text;
    }
}
