package io.changegrid.fetchers.mysql.schema;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

/**
 * MySQL's {@code latin1}: Windows code page 1252, except that the five bytes cp1252 leaves
 * undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 controls U+0081, U+008D, U+008F, U+0090,
 * U+009D, as MySQL's own conversion to Unicode does. Every byte value therefore decodes to a
 * distinct char and back, so a latin1 column's bytes survive decoding to a {@code String}
 * unchanged, which the JDK's {@code windows-1252} (which turns those five bytes into U+FFFD) would
 * not guarantee.
 *
 * <p>Immutable and thread-safe; use {@link #INSTANCE}.
 */
public final class MySqlLatin1Charset extends Charset {

    /** The charset's Java name. */
    public static final String NAME = "x-mysql-latin1";

    /** The only instance. */
    public static final MySqlLatin1Charset INSTANCE = new MySqlLatin1Charset();

    private static final char[] TO_CHAR = new char[256];
    private static final byte[] TO_BYTE = new byte[0x10000];
    private static final boolean[] ENCODABLE = new boolean[0x10000];

    static {
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        String cp1252 = new String(all, Charset.forName("windows-1252"));
        for (int b = 0; b < 256; b++) {
            char c = cp1252.charAt(b);
            TO_CHAR[b] = c == '\uFFFD' ? (char) b : c;
            TO_BYTE[TO_CHAR[b]] = (byte) b;
            ENCODABLE[TO_CHAR[b]] = true;
        }
    }

    private MySqlLatin1Charset() {
        super(NAME, new String[0]);
    }

    /** Decodes latin1 bytes; never fails and never loses a byte. */
    public static String decode(byte[] bytes, int offset, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = TO_CHAR[bytes[offset + i] & 0xFF];
        }
        return new String(chars);
    }

    /** Decodes latin1 bytes; never fails and never loses a byte. */
    public static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    @Override
    public boolean contains(Charset cs) {
        return cs instanceof MySqlLatin1Charset
                || cs.equals(StandardCharsets.US_ASCII)
                || cs.name().equals("windows-1252");
    }

    @Override
    public CharsetDecoder newDecoder() {
        return new Decoder(this);
    }

    @Override
    public CharsetEncoder newEncoder() {
        return new Encoder(this);
    }

    /** Table-driven: one char per byte. */
    private static final class Decoder extends CharsetDecoder {
        Decoder(Charset charset) {
            super(charset, 1.0f, 1.0f);
        }

        @Override
        protected CoderResult decodeLoop(ByteBuffer in, CharBuffer out) {
            while (in.hasRemaining()) {
                if (!out.hasRemaining()) {
                    return CoderResult.OVERFLOW;
                }
                out.put(TO_CHAR[in.get() & 0xFF]);
            }
            return CoderResult.UNDERFLOW;
        }
    }

    /** The inverse table; chars outside the 256 are unmappable. */
    private static final class Encoder extends CharsetEncoder {
        Encoder(Charset charset) {
            super(charset, 1.0f, 1.0f, new byte[] {'?'});
        }

        @Override
        protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
            while (in.hasRemaining()) {
                char c = in.get(in.position());
                if (!ENCODABLE[c]) {
                    return CoderResult.unmappableForLength(1);
                }
                if (!out.hasRemaining()) {
                    return CoderResult.OVERFLOW;
                }
                in.get();
                out.put(TO_BYTE[c]);
            }
            return CoderResult.UNDERFLOW;
        }

        @Override
        public boolean canEncode(char c) {
            return ENCODABLE[c];
        }
    }
}
