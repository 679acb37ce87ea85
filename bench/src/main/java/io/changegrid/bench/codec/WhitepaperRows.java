package io.changegrid.bench.codec;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The whitepaper's row shape: a table of about 1,100 bytes per row filled with random data, a key,
 * a few numbers and dates and mostly text. Seeded, so every run encodes the same bytes.
 */
public final class WhitepaperRows {

    /** Bytes of random text per row, chosen so an encoded insert frame is about 1,100 bytes. */
    static final int TEXT_BYTES = 960;

    private static final String ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.-";

    private WhitepaperRows() {}

    /** Registers table {@code bench.t<n>} with the whitepaper shape. */
    public static TableSchema register(SchemaRegistry registry, int n) {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("id", ValueType.INT64, "bigint", false, 0));
        columns.add(new Column("account", ValueType.INT64, "int", false, 0));
        columns.add(new Column("quantity", ValueType.INT64, "int", true, 0));
        columns.add(new Column("amount", ValueType.DECIMAL, "decimal(12,2)", true, 0));
        columns.add(new Column("created", ValueType.DATETIME, "datetime(6)", true, 0));
        columns.add(new Column("updated", ValueType.TIMESTAMP, "timestamp(6)", true, 0));
        for (int i = 1; i <= 6; i++) {
            columns.add(new Column("text" + i, ValueType.STRING, "varchar(255)", true, 0));
        }
        return registry.register("bench", "t" + n, columns, List.of("id"));
    }

    /** A row of random values for the whitepaper table, with the given id. */
    public static Object[] row(Random random, long id) {
        Object[] row = new Object[12];
        row[0] = id;
        row[1] = (long) random.nextInt(1_000_000);
        row[2] = (long) random.nextInt(1000);
        row[3] = BigDecimal.valueOf(random.nextInt(100_000_000), 2);
        row[4] =
                SqlDateTime.of(
                        LocalDateTime.of(2018, 1, 1, 0, 0).plusSeconds(random.nextInt(1 << 26)));
        row[5] =
                Instant.ofEpochSecond(
                        1_514_764_800L + random.nextInt(1 << 26), random.nextInt(1_000_000) * 1000);
        int remaining = TEXT_BYTES;
        for (int i = 6; i < 12; i++) {
            int length = i == 11 ? remaining : TEXT_BYTES / 6;
            row[i] = randomText(random, length);
            remaining -= length;
        }
        return row;
    }

    /**
     * The row as the binlog fetcher hands it over: text as its UTF-8 bytes (the fetcher does not
     * decode column text), other values as they are. A new array.
     */
    public static Object[] asFetched(Object[] row) {
        Object[] fetched = row.clone();
        for (int i = 0; i < fetched.length; i++) {
            if (fetched[i] instanceof String text) {
                fetched[i] = text.getBytes(StandardCharsets.UTF_8);
            }
        }
        return fetched;
    }

    private static String randomText(Random random, int length) {
        char[] text = new char[length];
        for (int i = 0; i < length; i++) {
            text[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(text);
    }
}
