package io.changegrid.events.value;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;

/**
 * A single-byte MySQL character set ({@code cp1251}, {@code latin2}, {@code greek}, ...) decoded
 * losslessly: every byte the JDK's namesake defines decodes as the JDK decodes it, and every byte
 * it leaves undefined (cp1251's 0x98, greek's 0xAE, ...) decodes to the char whose value is the
 * byte (U+0098 for cp1251's 0x98: a C1 control for 0x80..0x9F), or, should that char already stand
 * for another byte, to U+F700 plus the byte (Unicode's private use area). The server stores such
 * bytes unchecked and hands them on as they are; the JDK would turn them into U+FFFD and lose them.
 * Encoding with this charset gives the column's bytes back, so a consumer that knows the column's
 * character set (its source type says it) can recover them.
 *
 * <p>MySQL's {@code latin1} is the same idea with MySQL's own table ({@code MySqlLatin1Charset}).
 *
 * <p>Immutable and thread-safe.
 */
public final class LosslessSingleByteCharset extends Charset {

    /** Where a byte goes when its own value is taken by another byte's char. */
    private static final char PRIVATE_USE = '\uF700';

    private final char[] toChar = new char[256];
    private final byte[] toByte = new byte[0x10000];
    private final boolean[] encodable = new boolean[0x10000];

    /**
     * @param jdk a JDK single-byte charset, e.g. {@code windows-1251}
     */
    public LosslessSingleByteCharset(Charset jdk) {
        super("x-mysql-lossless-" + jdk.name(), new String[0]);
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        String decoded = new String(all, jdk);
        if (decoded.length() != 256) {
            throw new IllegalArgumentException("not a single-byte charset: charset=" + jdk.name());
        }
        for (int b = 0; b < 256; b++) {
            char c = decoded.charAt(b);
            if (c != '\uFFFD') {
                map(b, c);
            }
        }
        for (int b = 0; b < 256; b++) {
            if (decoded.charAt(b) == '\uFFFD') {
                map(b, encodable[b] ? (char) (PRIVATE_USE + b) : (char) b);
            }
        }
    }

    private void map(int b, char c) {
        toChar[b] = c;
        toByte[c] = (byte) b;
        encodable[c] = true;
    }

    /** Decodes bytes; never fails and never loses a byte. */
    public String decode(byte[] bytes) {
        char[] chars = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            chars[i] = toChar[bytes[i] & 0xFF];
        }
        return new String(chars);
    }

    @Override
    public boolean contains(Charset cs) {
        return cs.equals(this);
    }

    @Override
    public CharsetDecoder newDecoder() {
        return new CharsetDecoder(this, 1.0f, 1.0f) {
            @Override
            protected CoderResult decodeLoop(ByteBuffer in, CharBuffer out) {
                while (in.hasRemaining()) {
                    if (!out.hasRemaining()) {
                        return CoderResult.OVERFLOW;
                    }
                    out.put(toChar[in.get() & 0xFF]);
                }
                return CoderResult.UNDERFLOW;
            }
        };
    }

    @Override
    public CharsetEncoder newEncoder() {
        return new CharsetEncoder(this, 1.0f, 1.0f, new byte[] {'?'}) {
            @Override
            protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
                while (in.hasRemaining()) {
                    char c = in.get(in.position());
                    if (!encodable[c]) {
                        return CoderResult.unmappableForLength(1);
                    }
                    if (!out.hasRemaining()) {
                        return CoderResult.OVERFLOW;
                    }
                    in.get();
                    out.put(toByte[c]);
                }
                return CoderResult.UNDERFLOW;
            }

            @Override
            public boolean canEncode(char c) {
                return encodable[c];
            }
        };
    }
}
