package io.changegrid.fetchers.mysql.schema;

import io.changegrid.events.value.LosslessSingleByteCharset;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The character sets of MySQL and MariaDB: their canonical names, the most bytes a character takes
 * (which decides how big a {@code TEXT(n)} column becomes), the character set each collation
 * belongs to, and the Java charset that decodes each.
 *
 * <p>Stateless; thread-safe.
 */
final class MySqlCharsets {

    /**
     * The Java name of a single-byte character set decoded by {@link LosslessSingleByteCharset},
     * which knows its JDK namesake.
     */
    private static final String LOSSLESS = "lossless";

    /** How one server character set is sized and decoded. */
    private record Info(int maxBytesPerChar, String javaName) {}

    /**
     * Every character set of MariaDB 10.11 and MySQL 8 ({@code information_schema.CHARACTER_SETS}).
     * A null Java name means the JDK has no decoder for it.
     */
    private static final Map<String, Info> CHARSETS =
            Map.ofEntries(
                    Map.entry("armscii8", new Info(1, null)),
                    Map.entry("ascii", new Info(1, "US-ASCII")),
                    Map.entry("big5", new Info(2, "Big5")),
                    Map.entry("binary", new Info(1, "ISO-8859-1")),
                    Map.entry("cp1250", new Info(1, LOSSLESS)),
                    Map.entry("cp1251", new Info(1, LOSSLESS)),
                    Map.entry("cp1256", new Info(1, LOSSLESS)),
                    Map.entry("cp1257", new Info(1, LOSSLESS)),
                    Map.entry("cp850", new Info(1, LOSSLESS)),
                    Map.entry("cp852", new Info(1, LOSSLESS)),
                    Map.entry("cp866", new Info(1, LOSSLESS)),
                    Map.entry("cp932", new Info(2, "windows-31j")),
                    Map.entry("dec8", new Info(1, null)),
                    Map.entry("eucjpms", new Info(3, "x-eucJP-Open")),
                    Map.entry("euckr", new Info(2, "EUC-KR")),
                    Map.entry("gb18030", new Info(4, "GB18030")),
                    Map.entry("gb2312", new Info(2, "GB2312")),
                    Map.entry("gbk", new Info(2, "GBK")),
                    Map.entry("geostd8", new Info(1, null)),
                    Map.entry("greek", new Info(1, LOSSLESS)),
                    Map.entry("hebrew", new Info(1, LOSSLESS)),
                    Map.entry("hp8", new Info(1, null)),
                    Map.entry("keybcs2", new Info(1, null)),
                    Map.entry("koi8r", new Info(1, LOSSLESS)),
                    Map.entry("koi8u", new Info(1, LOSSLESS)),
                    Map.entry("latin1", new Info(1, MySqlLatin1Charset.NAME)),
                    Map.entry("latin2", new Info(1, LOSSLESS)),
                    Map.entry("latin5", new Info(1, LOSSLESS)),
                    Map.entry("latin7", new Info(1, LOSSLESS)),
                    Map.entry("macce", new Info(1, LOSSLESS)),
                    Map.entry("macroman", new Info(1, LOSSLESS)),
                    Map.entry("sjis", new Info(2, "Shift_JIS")),
                    Map.entry("swe7", new Info(1, null)),
                    Map.entry("tis620", new Info(1, LOSSLESS)),
                    Map.entry("ucs2", new Info(2, "UTF-16BE")),
                    Map.entry("ujis", new Info(3, "EUC-JP")),
                    Map.entry("utf16", new Info(4, "UTF-16BE")),
                    Map.entry("utf16le", new Info(4, "UTF-16LE")),
                    Map.entry("utf32", new Info(4, "UTF-32BE")),
                    Map.entry("utf8mb3", new Info(3, "UTF-8")),
                    Map.entry("utf8mb4", new Info(4, "UTF-8")));

    /** Longest first, so that {@code utf16le_bin} is not taken for a {@code utf16} collation. */
    private static final List<String> BY_LENGTH =
            CHARSETS.keySet().stream()
                    .sorted(Comparator.comparingInt(String::length).reversed())
                    .toList();

    private MySqlCharsets() {}

    /**
     * The canonical (lower-case) name of a character set, {@code utf8} resolved to {@code
     * utf8Charset}.
     *
     * @throws IllegalArgumentException for a character set the server does not have
     */
    static String canonical(String name, String utf8Charset) {
        if (name == null) {
            throw new IllegalArgumentException("character set must not be null");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("utf8")) {
            return utf8Charset;
        }
        if (!CHARSETS.containsKey(lower)) {
            throw new IllegalArgumentException("unknown character set: charset=" + name);
        }
        return lower;
    }

    /**
     * The character set of a collation: every collation's name starts with its character set's,
     * except {@code binary} and MariaDB's {@code uca1400_*}, which fit any Unicode character set
     * and so imply none (empty).
     *
     * @throws IllegalArgumentException for a collation of no known character set
     */
    static Optional<String> charsetOfCollation(String collation, String utf8Charset) {
        String lower = collation.toLowerCase(Locale.ROOT);
        if (lower.equals("binary")) {
            return Optional.of("binary");
        }
        if (lower.startsWith("uca1400_")) {
            return Optional.empty();
        }
        if (lower.startsWith("utf8_")) {
            return Optional.of(utf8Charset);
        }
        for (String charset : BY_LENGTH) {
            if (lower.startsWith(charset + "_")) {
                return Optional.of(charset);
            }
        }
        throw new IllegalArgumentException("unknown collation: collation=" + collation);
    }

    /** The most bytes one character of {@code charset} takes (its {@code MAXLEN}). */
    static int maxBytesPerChar(String charset) {
        Info info = CHARSETS.get(charset);
        if (info == null) {
            throw new IllegalArgumentException("unknown character set: charset=" + charset);
        }
        return info.maxBytesPerChar();
    }

    /**
     * The Java charset that decodes {@code charset}: UTF-8 for {@code utf8mb3}/{@code utf8mb4}, a
     * lossless cp1252 for {@code latin1}, ISO-8859-1 for {@code binary} (one char per byte,
     * lossless), a {@link LosslessSingleByteCharset} for the other single-byte sets ({@code
     * cp1251}, {@code latin2}, ...), UTF-16BE for {@code ucs2} and so on.
     *
     * @throws IllegalArgumentException for an unknown character set or one the JDK cannot decode
     *     ({@code armscii8}, {@code dec8}, {@code geostd8}, {@code hp8}, {@code keybcs2}, {@code
     *     swe7})
     */
    static Charset javaCharset(String charset) {
        Info info = CHARSETS.get(charset);
        if (info == null) {
            throw new IllegalArgumentException("unknown character set: charset=" + charset);
        }
        if (info.javaName() == null) {
            throw new IllegalArgumentException(
                    "no Java decoder for character set: charset=" + charset);
        }
        return switch (info.javaName()) {
            case "UTF-8" -> StandardCharsets.UTF_8;
            case "ISO-8859-1" -> StandardCharsets.ISO_8859_1;
            case "US-ASCII" -> StandardCharsets.US_ASCII;
            case MySqlLatin1Charset.NAME -> MySqlLatin1Charset.INSTANCE;
            case LOSSLESS -> LosslessSingleByteCharset.forSourceCharset(charset).orElseThrow();
            default -> Charset.forName(info.javaName());
        };
    }
}
