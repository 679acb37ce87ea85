package io.changegrid.gridkit.logminer;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The values of {@link LogMinerWorkload}'s ITEMS rows: the edge values of every column type the
 * fetcher carries, drawn from the workload's seeded random. A timestamp is cut to its column's
 * fractional digits ({@code TIMESTAMP(6) WITH TIME ZONE} holds microseconds), as Oracle stores it.
 *
 * <p>Not thread-safe: the workload's writer owns it.
 */
final class ItemValues {

    private final Random random;
    private final double longValueRate;

    ItemValues(Random random, double longValueRate) {
        this.random = random;
        this.longValueRate = longValueRate;
    }

    /**
     * A row of ITEMS with key {@code id}: a value for each column of {@code columns} (NULL in one
     * of six), {@code EXTRA} too once the DDL added it.
     */
    Map<String, Object> row(long id, List<StandInColumn> columns, boolean ddlDone) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("ID", id);
        put(
                row,
                "NAME",
                pick(
                        "plain",
                        "O'Brien's",
                        "",
                        "multi\nline\r\nvalue",
                        "semi; colon = 'x' and \"q\"",
                        "a || b"));
        put(row, "NNAME", pick("ascii", "Привет", "café 😀", "日本語", "\\backslash"));
        put(
                row,
                "PRICE",
                pick(
                        new BigDecimal("0.50"),
                        new BigDecimal("-0.01"),
                        new BigDecimal("9999999999.99"),
                        new BigDecimal("12.30"),
                        BigDecimal.ZERO.setScale(2)));
        put(row, "QTY", pick(0L, -1L, 999_999_999_999_999_999L, -999_999_999_999_999_999L, 42L));
        put(
                row,
                "RATIO",
                pick(
                        0.1,
                        -0.0,
                        1.0E308,
                        4.9E-324,
                        Double.NaN,
                        Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY));
        put(
                row,
                "CREATED",
                pick(
                        LocalDateTime.of(2026, 11, 26, 7, 5, 9),
                        LocalDateTime.of(-4711, 1, 1, 0, 0),
                        LocalDateTime.of(9999, 12, 31, 23, 59, 59),
                        LocalDateTime.of(2000, 2, 29, 12, 0)));
        put(
                row,
                "UPDATED",
                pick(
                        LocalDateTime.of(2026, 11, 26, 7, 5, 9, 123_456_000),
                        LocalDateTime.of(1970, 1, 1, 0, 0),
                        LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)));
        put(
                row,
                "SEEN",
                pick(
                        OffsetDateTime.of(
                                2026,
                                3,
                                29,
                                1,
                                30,
                                0,
                                123_456_789,
                                ZoneOffset.ofHoursMinutes(-5, -30)),
                        OffsetDateTime.of(2026, 11, 26, 0, 0, 0, 0, ZoneOffset.UTC),
                        OffsetDateTime.of(2026, 1, 1, 23, 0, 0, 1, ZoneOffset.ofHours(14))));
        put(
                row,
                "TAG",
                pick(new byte[] {0, (byte) 0xFF, 0x7F, (byte) 0x80}, new byte[16], new byte[] {1}));
        put(
                row,
                "WAIT",
                pick(
                        Duration.ofDays(3).plusHours(4).plusMillis(700),
                        Duration.ofSeconds(-1).minusNanos(500_000_000),
                        Duration.ZERO));
        put(
                row,
                "NOTE",
                random.nextDouble() < longValueRate
                        ? "n".repeat(3000 + random.nextInt(990))
                        : pick("short", "x'y", null));
        row.keySet().removeIf(name -> columns.stream().noneMatch(c -> c.name().equals(name)));
        for (StandInColumn column : columns) {
            row.computeIfPresent(column.name(), (name, value) -> toScale(column, value));
        }
        if (ddlDone) {
            put(row, "EXTRA", pick("extra", null));
        }
        return row;
    }

    private Object pick(Object... choices) {
        // NULL in one of six, any column but the key
        return random.nextInt(6) == 0 ? null : choices[random.nextInt(choices.length)];
    }

    private static void put(Map<String, Object> row, String column, Object value) {
        if (value != null) {
            row.put(column, value);
        }
    }

    /**
     * A timestamp cut to the column's fractional digits ({@code DATA_SCALE}); others as they are.
     */
    private static Object toScale(StandInColumn column, Object value) {
        if (column.scale() == null || !column.dataType().startsWith("TIMESTAMP")) {
            return value;
        }
        long unit = (long) Math.pow(10, 9 - column.scale());
        if (value instanceof OffsetDateTime t) {
            return t.withNano((int) (t.getNano() / unit * unit));
        }
        if (value instanceof LocalDateTime t) {
            return t.withNano((int) (t.getNano() / unit * unit));
        }
        return value;
    }
}
