package io.changegrid.events.value;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How the change event carries text of a single-byte character set ({@code cp1251}, {@code latin2},
 * {@code greek}, ...) losslessly: every byte the JDK's namesake defines decodes as the JDK decodes
 * it, and every byte it leaves undefined (cp1251's 0x98, greek's 0xAE, ...) decodes to the char
 * whose value is the byte (U+0098 for cp1251's 0x98: a C1 control for 0x80..0x9F), or, should that
 * char already stand for another byte, to U+F700 plus the byte (Unicode's private use area). A
 * server stores such bytes unchecked and hands them on as they are; the JDK would turn them into
 * U+FFFD and lose them. Encoding with this charset gives the column's bytes back, so a consumer
 * that knows the column's character set (its source type names it, see {@link #forSourceCharset})
 * can recover them. This mapping is part of the event format (docs/event-format.md): the fetcher
 * decodes with it and a target that stores the source's bytes encodes with it, so it must never
 * change.
 *
 * <p>MySQL's {@code latin1} is the same idea with MySQL's own table, which defines every byte and
 * which the server itself converts to and from Unicode the same way; it stays with the MySQL
 * fetcher.
 *
 * <p>Immutable and thread-safe.
 */
public final class LosslessSingleByteCharset extends Charset {

    /**
     * The JDK charset of each single-byte character set by the name a source type gives it
     * (MariaDB's and MySQL's names), except {@code latin1}, {@code ascii} and {@code binary}, which
     * need no such mapping.
     */
    private static final Map<String, String> JDK_NAMES =
            Map.ofEntries(
                    Map.entry("cp1250", "windows-1250"),
                    Map.entry("cp1251", "windows-1251"),
                    Map.entry("cp1256", "windows-1256"),
                    Map.entry("cp1257", "windows-1257"),
                    Map.entry("cp850", "IBM850"),
                    Map.entry("cp852", "IBM852"),
                    Map.entry("cp866", "IBM866"),
                    Map.entry("greek", "ISO-8859-7"),
                    Map.entry("hebrew", "ISO-8859-8"),
                    Map.entry("koi8r", "KOI8-R"),
                    Map.entry("koi8u", "KOI8-U"),
                    Map.entry("latin2", "ISO-8859-2"),
                    Map.entry("latin5", "ISO-8859-9"),
                    Map.entry("latin7", "ISO-8859-13"),
                    Map.entry("macce", "x-MacCentralEurope"),
                    Map.entry("macroman", "x-MacRoman"),
                    Map.entry("tis620", "TIS-620"));

    /** The charsets built so far: 128 KiB of tables each, so only those in use. */
    private static final Map<String, LosslessSingleByteCharset> BUILT = new ConcurrentHashMap<>();

    /** Where a byte goes when its own value is taken by another byte's char. */
    private static final char PRIVATE_USE = '\uF700';

    private final char[] toChar = new char[256];
    private final byte[] toByte = new byte[0x10000];
    private final boolean[] encodable = new boolean[0x10000];

    private final String sourceName;

    /**
     * @param sourceName the character set's name in source types, e.g. {@code cp1251}
     * @param jdk its JDK namesake, e.g. {@code windows-1251}
     */
    private LosslessSingleByteCharset(String sourceName, Charset jdk) {
        super("x-changegrid-lossless-" + jdk.name(), new String[0]);
        this.sourceName = sourceName;
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

    /**
     * The lossless charset of a single-byte character set named as a source type names it ({@code
     * cp1251}, any case); empty for a character set that is not one of them ({@code utf8mb4},
     * {@code latin1}, {@code sjis}, ...).
     */
    public static Optional<LosslessSingleByteCharset> forSourceCharset(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        String jdk = JDK_NAMES.get(lower);
        if (jdk == null) {
            return Optional.empty();
        }
        return Optional.of(
                BUILT.computeIfAbsent(
                        lower, n -> new LosslessSingleByteCharset(n, Charset.forName(jdk))));
    }

    /** The character set's name in source types, e.g. {@code cp1251}. */
    public String sourceName() {
        return sourceName;
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

    /**
     * Encodes text back into the character set's bytes.
     *
     * @throws IllegalArgumentException naming the character set, the char and its index if the text
     *     holds a char this mapping gives no byte (one it did not decode)
     */
    public byte[] bytesOf(String text) {
        byte[] bytes = new byte[text.length()];
        for (int i = 0; i < bytes.length; i++) {
            char c = text.charAt(i);
            if (!encodable[c]) {
                throw new IllegalArgumentException(
                        String.format(
                                "char not in the character set: charset=%s, char=U+%04X, index=%d",
                                sourceName, (int) c, i));
            }
            bytes[i] = toByte[c];
        }
        return bytes;
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
