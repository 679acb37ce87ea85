package io.changegrid.protocol.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The token file: which bearer token names which principal, each token stored as the lowercase hex
 * SHA-256 of its text, one per line: {@code sha256:<64 hex digits> <principal>}; {@code #} starts a
 * comment.
 *
 * <p>Why an unsalted SHA-256 and not PBKDF2, bcrypt or argon2: tokens are random secrets of 256
 * bits made by a machine ({@code openssl rand -hex 32}), not passwords people choose, so there is
 * no dictionary to try and nothing a slow hash would add against a stolen file; and a request is
 * recognized by looking its token's hash up, which a per-entry salt would turn into trying every
 * entry with a deliberately slow function on every long poll. Whoever reads the file learns who may
 * connect, not how.
 *
 * <p>Immutable; a changed file is read into a new table.
 */
public final class TokenTable {

    /** The prefix of a hash in the file, naming the algorithm. */
    public static final String SHA256 = "sha256:";

    /** No tokens: every token is unknown. */
    public static final TokenTable EMPTY = new TokenTable(Map.of());

    private final Map<String, String> principalByHash;

    private TokenTable(Map<String, String> principalByHash) {
        this.principalByHash = Map.copyOf(principalByHash);
    }

    /**
     * Reads a token file.
     *
     * @throws IOException naming the file and the line of any problem; the file's tokens are never
     *     part of a message
     */
    public static TokenTable read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    static TokenTable parse(List<String> lines, String where) throws IOException {
        Map<String, String> byHash = new HashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2
                    || !parts[0].startsWith(SHA256)
                    || !parts[0].substring(SHA256.length()).matches("[0-9a-f]{64}")) {
                throw new IOException(
                        "bad token line: file="
                                + where
                                + ", line="
                                + (n + 1)
                                + ": expected sha256:<64 lowercase hex digits> <principal>");
            }
            String hash = parts[0].substring(SHA256.length());
            String previous = byHash.put(hash, parts[1]);
            if (previous != null && !previous.equals(parts[1])) {
                throw new IOException(
                        "one token for two principals: file="
                                + where
                                + ", line="
                                + (n + 1)
                                + ", principals="
                                + previous
                                + ","
                                + parts[1]);
            }
        }
        return new TokenTable(byHash);
    }

    /** The principal a token names, or null when no line has its hash. */
    public String principalOf(String token) {
        return principalByHash.get(hash(token));
    }

    /** How many tokens the table holds. */
    public int size() {
        return principalByHash.size();
    }

    /** The lowercase hex SHA-256 of a token's UTF-8 text, as the file stores it. */
    public static String hash(String token) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha256.digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
