package io.changegrid.policy.transform;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How a masked column's value is replaced. Every masking produces a new string computed from the
 * value's text, so the original value object never reaches the output; NULL stays NULL. Immutable
 * and thread-safe.
 */
public sealed interface Masking {

    /** The masked text of a non-null value. */
    String mask(Object value);

    /**
     * Lowercase hex SHA-256 of {@code salt} followed by the value's UTF-8 text. Each thread keeps a
     * digest already fed with the salt and clones it per value: masking runs on the fetcher thread
     * for every masked cell, where looking up a provider each time would dominate.
     */
    final class Hash implements Masking {
        private final String salt;
        private final ThreadLocal<MessageDigest> salted;

        public Hash(String salt) {
            this.salt = salt;
            this.salted = ThreadLocal.withInitial(() -> saltedDigest(salt));
        }

        @Override
        public String mask(Object value) {
            MessageDigest digest;
            try {
                digest = (MessageDigest) salted.get().clone();
            } catch (CloneNotSupportedException e) {
                digest = saltedDigest(salt);
            }
            digest.update(ValueText.of(value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest.digest());
        }

        private static MessageDigest saltedDigest(String salt) {
            try {
                MessageDigest digest = MessageDigest.getInstance("SHA-256");
                digest.update(salt.getBytes(StandardCharsets.UTF_8));
                return digest;
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Hash && ((Hash) o).salt.equals(salt);
        }

        @Override
        public int hashCode() {
            return salt.hashCode();
        }

        @Override
        public String toString() {
            return "Hash[salt=***]"; // the salt is a secret
        }
    }

    /** Every character (code point) replaced by {@code fill}, keeping the length. */
    record Fixed(int fill) implements Masking {
        @Override
        public String mask(Object value) {
            String text = ValueText.of(value);
            int length = text.codePointCount(0, text.length());
            return new String(Character.toChars(fill)).repeat(length);
        }
    }

    /** The first {@code length} characters (code points) of the value's text. */
    record Truncate(int length) implements Masking {
        public Truncate {
            if (length < 0) {
                throw new IllegalArgumentException("truncate length must be >= 0: value=" + length);
            }
        }

        @Override
        public String mask(Object value) {
            String text = ValueText.of(value);
            if (text.codePointCount(0, text.length()) <= length) {
                return text;
            }
            return text.substring(0, text.offsetByCodePoints(0, length));
        }
    }
}
