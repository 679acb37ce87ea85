package io.changegrid.policy.transform;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

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
     * {@link #maskUtf8(byte[])}, written over {@code previous} where the masking can: the array it
     * returned for the caller's last value, or null. For a caller that masks row after row and
     * copies each mask into a frame before the next: no array per value. The caller must not keep a
     * result past its next call with it.
     */
    default byte[] maskUtf8(byte[] utf8, byte[] previous) {
        return maskUtf8(utf8);
    }

    /**
     * {@link #maskUtf8(byte[], byte[])} of the text in {@code utf8[offset, offset + length)}, read
     * where it lies: for a caller that reads rows in place, no copy of the value.
     */
    default byte[] maskUtf8(byte[] utf8, int offset, int length, byte[] previous) {
        return maskUtf8(Arrays.copyOfRange(utf8, offset, offset + length), previous);
    }

    /**
     * Lowercase hex SHA-256 of {@code salt} followed by the value's UTF-8 text. Masking runs on the
     * fetcher thread for every masked cell, so each thread keeps one digest and its scratch arrays:
     * a digest per value (or a clone of a pre-salted one, which copies the digest's whole state)
     * would allocate more than the rest of the row's route.
     */
    final class Hash implements Masking {
        /** The length of a mask: two hex digits per byte of a SHA-256 digest. */
        private static final int HEX_LENGTH = 64;

        private final String salt;
        private final ThreadLocal<Hasher> hashers;

        public Hash(String salt) {
            this.salt = salt;
            byte[] saltBytes = salt.getBytes(StandardCharsets.UTF_8);
            this.hashers = ThreadLocal.withInitial(() -> new Hasher(saltBytes));
        }

        @Override
        public String mask(Object value) {
            byte[] hex = maskUtf8(ValueText.of(value).getBytes(StandardCharsets.UTF_8));
            return new String(hex, StandardCharsets.US_ASCII);
        }

        /** Hashes the bytes as they came: decoding to a string would only encode them again. */
        @Override
        public byte[] maskUtf8(byte[] utf8) {
            return maskUtf8(utf8, null);
        }

        /** Every hash has the same length, so {@code previous} always takes the next one. */
        @Override
        public byte[] maskUtf8(byte[] utf8, byte[] previous) {
            return maskUtf8(utf8, 0, utf8.length, previous);
        }

        @Override
        public byte[] maskUtf8(byte[] utf8, int offset, int length, byte[] previous) {
            return hashers.get()
                    .hex(
                            utf8,
                            offset,
                            length,
                            previous != null && previous.length == HEX_LENGTH
                                    ? previous
                                    : new byte[HEX_LENGTH]);
        }

        /** One thread's digest, salt and scratch space. */
        private static final class Hasher {
            private static final VarHandle INT =
                    MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
            private static final VarHandle LONG =
                    MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

            /** Value bytes that are hashed in one update with the salt before them. */
            private static final int SHORT_VALUE = 128;

            private final MessageDigest digest;
            private final int saltLength;

            /** The salt, then room for a short value: one digest update for both. */
            private final byte[] salted;

            private final byte[] hash;

            Hasher(byte[] salt) {
                try {
                    this.digest = MessageDigest.getInstance("SHA-256");
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("every Java runtime has SHA-256", e);
                }
                this.saltLength = salt.length;
                this.salted = Arrays.copyOf(salt, salt.length + SHORT_VALUE);
                this.hash = new byte[digest.getDigestLength()];
            }

            /**
             * The hex digest of salt + text as ASCII (= UTF-8) bytes, written into {@code hex}
             * ({@link #HEX_LENGTH} long) and returned; the digest is reset by completing it. A
             * short value is copied behind the salt and hashed with it in one update: each update
             * costs the digest as much bookkeeping as copying the value does.
             */
            byte[] hex(byte[] utf8, int offset, int length, byte[] hex) {
                if (length <= SHORT_VALUE) {
                    System.arraycopy(utf8, offset, salted, saltLength, length);
                    digest.update(salted, 0, saltLength + length);
                } else {
                    digest.update(salted, 0, saltLength);
                    digest.update(utf8, offset, length);
                }
                try {
                    digest.digest(hash, 0, hash.length);
                } catch (DigestException e) {
                    throw new IllegalStateException("SHA-256 output buffer too small", e);
                }
                for (int i = 0; i < hash.length; i += 4) {
                    LONG.set(hex, 2 * i, hexDigits((int) INT.get(hash, i)));
                }
                return hex;
            }

            /**
             * The eight lowercase hex digits of four bytes, first digit in the highest byte: the
             * nibbles are spread one to a byte, then each byte gets '0' added, and 'a' - '0' - 10
             * more where its nibble is ten or more: a dozen word operations per four bytes, where a
             * table lookup and a store per digit took 0.6 of the compression's time in a stage-1
             * profile (issue 22).
             */
            static long hexDigits(int fourBytes) {
                long x = fourBytes & 0xFFFF_FFFFL;
                x = (x & 0xFFFF_0000L) << 16 | x & 0xFFFFL;
                x = (x & 0x0000_FF00_0000_FF00L) << 8 | x & 0x0000_00FF_0000_00FFL;
                x = (x & 0x00F0_00F0_00F0_00F0L) << 4 | x & 0x000F_000F_000F_000FL;
                long letters = ((x + 0x0606_0606_0606_0606L) >>> 4) & 0x0101_0101_0101_0101L;
                return x + 0x3030_3030_3030_3030L + letters * ('a' - '0' - 10);
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
