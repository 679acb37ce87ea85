package io.changegrid.policy.transform;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * How a masked column's value is replaced. Every masking produces a new string computed from the
 * value's text, so the original value object never reaches the output; NULL stays NULL. Immutable
 * and thread-safe.
 */
public sealed interface Masking {

    /** The masked text of a non-null value. */
    String mask(Object value);

    /**
     * The masked text of a text value given as its UTF-8 bytes, as the binlog fetcher passes text
     * through, as UTF-8 bytes: the encoding of {@link #mask} of the decoded string. Text stays in
     * the form it came in, so the frame encoder copies it instead of encoding a string again.
     */
    default byte[] maskUtf8(byte[] utf8) {
        return mask(new String(utf8, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Lowercase hex SHA-256 of {@code salt} followed by the value's UTF-8 text. Masking runs on the
     * fetcher thread for every masked cell, so each thread keeps one digest and its scratch arrays:
     * a digest per value (or a clone of a pre-salted one, which copies the digest's whole state)
     * would allocate more than the rest of the row's route.
     */
    final class Hash implements Masking {
        private final String salt;
        private final ThreadLocal<Hasher> hashers;

        public Hash(String salt) {
            this.salt = salt;
            byte[] saltBytes = salt.getBytes(StandardCharsets.UTF_8);
            this.hashers = ThreadLocal.withInitial(() -> new Hasher(saltBytes));
        }

        @Override
        public String mask(Object value) {
            byte[] hex = hashers.get().hex(ValueText.of(value).getBytes(StandardCharsets.UTF_8));
            return new String(hex, StandardCharsets.US_ASCII);
        }

        /** Hashes the bytes as they came: decoding to a string would only encode them again. */
        @Override
        public byte[] maskUtf8(byte[] utf8) {
            return hashers.get().hex(utf8);
        }

        /** One thread's digest, salt and scratch space. */
        private static final class Hasher {
            private static final byte[] DIGITS =
                    "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

            private final MessageDigest digest;
            private final byte[] salt;
            private final byte[] hash;

            Hasher(byte[] salt) {
                try {
                    this.digest = MessageDigest.getInstance("SHA-256");
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("every Java runtime has SHA-256", e);
                }
                this.salt = salt;
                this.hash = new byte[digest.getDigestLength()];
            }

            /**
             * The hex digest of salt + text as ASCII (= UTF-8) bytes, a new array; the digest is
             * reset by completing it.
             */
            byte[] hex(byte[] utf8) {
                digest.update(salt);
                digest.update(utf8);
                try {
                    digest.digest(hash, 0, hash.length);
                } catch (DigestException e) {
                    throw new IllegalStateException("SHA-256 output buffer too small", e);
                }
                byte[] hex = new byte[2 * hash.length];
                for (int i = 0; i < hash.length; i++) {
                    hex[2 * i] = DIGITS[(hash[i] >> 4) & 0xf];
                    hex[2 * i + 1] = DIGITS[hash[i] & 0xf];
                }
                return hex;
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
