package io.changegrid.gridkit.load;

import java.util.SplittableRandom;

/**
 * Writes rows of realistic random values as SQL literals, fast: the load's data should look like
 * business data (the SQLFire lesson: sequential filler behaves differently), and generating it must
 * cost far less than the database's work of storing it.
 *
 * <table>
 *   <caption>the columns</caption>
 *   <tr><td>{@code id}</td><td>BIGINT key, given by the caller</td></tr>
 *   <tr><td>{@code account}</td><td>INT, log-uniform 1..10M: a few accounts hold most rows</td></tr>
 *   <tr><td>{@code quantity}</td><td>INT, geometric from 1: mostly 1-3, sometimes 20</td></tr>
 *   <tr><td>{@code amount}</td><td>DECIMAL(12,2), log-normal around 40</td></tr>
 *   <tr><td>{@code status}</td><td>VARCHAR(12), five values with skewed weights</td></tr>
 *   <tr><td>{@code code}</td><td>CHAR(5), four digits and a letter (9305P)</td></tr>
 *   <tr><td>{@code name}</td><td>VARCHAR(40), a pronounceable word (JOMUNA)</td></tr>
 *   <tr><td>{@code created}</td><td>DATETIME(6), uniform over 2015-2025</td></tr>
 *   <tr><td>{@code updated}</td><td>TIMESTAMP(6), the commit's NOW(6)</td></tr>
 *   <tr><td>{@code note1..5}</td><td>VARCHAR, words of random length around the text share of the
 *       record size</td></tr>
 * </table>
 *
 * <p>Not thread-safe: one generator thread owns it.
 */
final class RowValues {

    /** Text columns; they carry what the fixed columns leave of the record size. */
    static final int TEXT_COLUMNS = 5;

    /** Bytes of the fixed columns as stored, about. */
    static final int FIXED_BYTES = 56;

    /** The non-key columns in table order, for INSERT column lists and upserts. */
    static final String[] VALUE_COLUMNS = {
        "account",
        "quantity",
        "amount",
        "status",
        "code",
        "name",
        "created",
        "updated",
        "note1",
        "note2",
        "note3",
        "note4",
        "note5"
    };

    private static final String[] STATUS = {"NEW", "PAID", "SHIPPED", "CANCELLED", "RETURNED"};
    private static final int[] STATUS_PERCENT_BELOW = {40, 70, 90, 97, 100};
    private static final char[][] SYLLABLES = syllables();
    private static final double LOG_ACCOUNTS = Math.log(10_000_000);
    private static final double LOG_QUANTITY_STEP = Math.log(0.75);

    private final SplittableRandom random;
    private final String now;
    private final int meanText;
    private final char[] scratch;

    /**
     * @param recordSize bytes of values per row, about
     * @param seed of the values
     */
    RowValues(int recordSize, long seed) {
        this(recordSize, seed, LoadDialect.MARIADB.now());
    }

    /**
     * @param now the source's expression for the commit's time, with microseconds
     */
    RowValues(int recordSize, long seed, String now) {
        this.random = new SplittableRandom(seed);
        this.now = now;
        this.meanText = Math.max(8, (recordSize - FIXED_BYTES) / TEXT_COLUMNS);
        this.scratch = new char[maxText() + 8];
    }

    /** The longest text a note column gets: the VARCHAR length its DDL needs. */
    int maxText() {
        return meanText * 3 / 2;
    }

    /** Appends {@code (id, account, ..., note5)}. */
    void appendRow(StringBuilder sql, long id) {
        sql.append('(').append(id).append(',');
        appendValues(sql);
        sql.append(')');
    }

    /** Appends the values of every non-key column, comma-separated. */
    private void appendValues(StringBuilder sql) {
        sql.append((long) Math.exp(random.nextDouble() * LOG_ACCOUNTS)).append(',');
        sql.append(1 + (int) (Math.log(1 - random.nextDouble()) / LOG_QUANTITY_STEP)).append(',');
        long cents =
                Math.min(
                        999_999_999_999L,
                        (long) (Math.exp(3.7 + 1.1 * random.nextGaussian()) * 100));
        sql.append(cents / 100).append('.');
        long fraction = cents % 100;
        sql.append(fraction < 10 ? "0" : "").append(fraction).append(",'");
        sql.append(status()).append("','");
        sql.append(random.nextInt(10_000)).append((char) ('A' + random.nextInt(26))).append("','");
        appendName(sql);
        sql.append("','");
        appendDateTime(sql);
        sql.append("',").append(now);
        for (int c = 0; c < TEXT_COLUMNS; c++) {
            sql.append(",'");
            appendText(sql, meanText / 2 + random.nextInt(meanText + 1));
            sql.append('\'');
        }
    }

    private String status() {
        int percent = random.nextInt(100);
        int i = 0;
        while (percent >= STATUS_PERCENT_BELOW[i]) {
            i++;
        }
        return STATUS[i];
    }

    private void appendName(StringBuilder sql) {
        int syllables = 2 + random.nextInt(3);
        for (int i = 0; i < syllables; i++) {
            char[] syllable = SYLLABLES[random.nextInt(SYLLABLES.length)];
            for (char c : syllable) {
                sql.append(Character.toUpperCase(c));
            }
        }
    }

    private void appendDateTime(StringBuilder sql) {
        sql.append(2015 + random.nextInt(11)).append('-');
        two(sql, 1 + random.nextInt(12)).append('-');
        two(sql, 1 + random.nextInt(28)).append(' ');
        two(sql, random.nextInt(24)).append(':');
        two(sql, random.nextInt(60)).append(':');
        two(sql, random.nextInt(60)).append('.').append(100_000 + random.nextInt(900_000));
    }

    private static StringBuilder two(StringBuilder sql, int value) {
        return sql.append(value < 10 ? "0" : "").append(value);
    }

    /**
     * Words of 1-4 syllables separated by spaces, now and then capitalized or ending a sentence;
     * ten syllables come from one random long.
     */
    private void appendText(StringBuilder sql, int length) {
        int at = 0;
        int inWord = 0;
        int wordLength = 1 + random.nextInt(4);
        while (at < length) {
            long bits = random.nextLong();
            for (int k = 0; k < 10 && at < length; k++, bits >>>= 6) {
                char[] syllable = SYLLABLES[(int) (bits & 63)];
                for (int i = 0; i < syllable.length && at < length; i++) {
                    scratch[at++] = syllable[i];
                }
                if (++inWord == wordLength && at < length) {
                    scratch[at++] = (bits & 0x3000) == 0 ? '.' : ' ';
                    if (scratch[at - 1] == '.' && at < length) {
                        scratch[at++] = ' ';
                    }
                    inWord = 0;
                    wordLength = 1 + (int) ((bits >>> 8) & 3);
                }
            }
        }
        sql.append(scratch, 0, length);
    }

    /** 64 consonant-vowel syllables, a few with a closing consonant. */
    private static char[][] syllables() {
        String consonants = "bcdfgklmnprstvz";
        String vowels = "aeiou";
        char[][] syllables = new char[64][];
        int n = 0;
        for (int c = 0; c < consonants.length() && n < 64; c++) {
            for (int v = 0; v < vowels.length() && n < 64; v++) {
                syllables[n] =
                        n % 7 == 3
                                ? new char[] {
                                    consonants.charAt(c),
                                    vowels.charAt(v),
                                    consonants.charAt((c + v) % consonants.length())
                                }
                                : new char[] {consonants.charAt(c), vowels.charAt(v)};
                n++;
            }
        }
        return syllables;
    }
}
