package io.changegrid.fetchers.mysql;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names one DDL statement for {@code source.ddlSkip}: the SHA-256 of the statement's text as the
 * binlog carries it (UTF-8), in lowercase hex. Printed in the error that stops a fetcher on a
 * statement it cannot understand, so an operator copies it rather than computes it.
 */
final class DdlDigest {

    /** Length of a digest's text: 32 bytes in hex. */
    static final int LENGTH = 64;

    private DdlDigest() {}

    static String of(String statement) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return HexFormat.of()
                    .formatHex(sha256.digest(statement.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** Whether {@code text} has the form of a digest. */
    static boolean isDigest(String text) {
        return text.length() == LENGTH && text.chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }
}
