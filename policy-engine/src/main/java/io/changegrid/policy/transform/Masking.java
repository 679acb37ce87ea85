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

    /** Lowercase hex SHA-256 of {@code salt} followed by the value's UTF-8 text. */
    record Hash(String salt) implements Masking {
        @Override
        public String mask(Object value) {
            MessageDigest digest;
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
            digest.update(salt.getBytes(StandardCharsets.UTF_8));
            digest.update(ValueText.of(value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest.digest());
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
