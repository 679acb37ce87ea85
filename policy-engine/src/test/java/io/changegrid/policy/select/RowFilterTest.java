package io.changegrid.policy.select;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowFilterTest {

    static final TableSchema ORDERS =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "orders",
                    List.of(
                            Column.of("id", ValueType.INT64),
                            Column.of("big", ValueType.UINT64),
                            Column.of("total", ValueType.DECIMAL),
                            Column.of("name", ValueType.STRING),
                            Column.of("day", ValueType.DATE),
                            Column.of("at", ValueType.TIMESTAMP),
                            Column.of("ratio", ValueType.FLOAT64),
                            Column.of("flag", ValueType.BOOLEAN)),
                    List.of("id"));

    static Object[] row(Object... values) {
        return values;
    }

    static final Object[] ROW =
            row(
                    7L,
                    new BigInteger("18446744073709551615"),
                    new BigDecimal("10.50"),
                    "Zoë 😀",
                    new SqlDate(2024, 2, 29),
                    Instant.parse("2024-01-01T00:00:00Z"),
                    0.1,
                    true);

    private static boolean insert(String where, Object[] after) {
        return filter(where).test(Operation.INSERT, null, after);
    }

    private static RowFilter filter(String where) {
        List<String> problems = new ArrayList<>();
        RowFilter filter = RowFilter.compile(PredicateParser.parse(where), ORDERS, problems::add);
        assertThat(problems).isEmpty();
        return filter;
    }

    @Test
    void shouldSayWhichColumnsItOnlyTestsForNull() {
        RowFilter filter =
                filter("name IS NOT NULL AND total > 10 AND (day IS NULL OR day = '2024-02-29')");

        assertThat(filter.columnsRead()).isEqualTo(3);
        assertThat(filter.column(0)).isEqualTo(2); // total
        assertThat(filter.readsValue(0)).isTrue();
        assertThat(filter.column(1)).isEqualTo(3); // name: only whether it is NULL
        assertThat(filter.readsValue(1)).isFalse();
        assertThat(filter.column(2)).isEqualTo(4); // day: tested for NULL and compared
        assertThat(filter.readsValue(2)).isTrue();
        // Any non-null object stands for a value only tested for NULL.
        Object[] standIn = ROW.clone();
        standIn[3] = Boolean.TRUE;
        assertThat(filter.test(Operation.INSERT, null, standIn)).isTrue();
        standIn[3] = null;
        assertThat(filter.test(Operation.INSERT, null, standIn)).isFalse();
    }

    @Test
    void shouldCompareNumbersByValueWhenTypesAndScalesDiffer() {
        assertThat(insert("total = 10.5", ROW)).isTrue();
        assertThat(insert("total = 10.500", ROW)).isTrue();
        assertThat(insert("total > 10", ROW)).isTrue();
        assertThat(insert("id >= 7.0 AND id < 8", ROW)).isTrue();
        assertThat(insert("id < 99999999999999999999", ROW)).isTrue();
        assertThat(insert("big = 18446744073709551615", ROW)).isTrue();
        assertThat(insert("big > 9223372036854775807", ROW)).isTrue();
        assertThat(insert("ratio = 0.1 AND flag = TRUE", ROW)).isTrue();
    }

    @Test
    void shouldCompareTextDatesAndTimestampsWhenLiteralsAreQuoted() {
        assertThat(insert("name = 'Zoë 😀'", ROW)).isTrue();
        assertThat(insert("name > 'Zoë \uFFFF'", ROW))
                .as("code point order puts emoji after BMP")
                .isTrue();
        assertThat(insert("day = '2024-02-29' AND day > '2024-02-28'", ROW)).isTrue();
        assertThat(insert("at < '2024-01-01T00:00:01Z'", ROW)).isTrue();
    }

    @Test
    void shouldFollowThreeValuedLogicWhenValuesAreNull() {
        Object[] nulls = row(7L, null, null, null, null, null, null, null);
        assertThat(insert("name = 'x'", nulls)).isFalse();
        assertThat(insert("NOT name = 'x'", nulls)).isFalse();
        assertThat(insert("name != 'x'", nulls)).isFalse();
        assertThat(insert("name = 'x' OR id = 7", nulls)).isTrue();
        assertThat(insert("name IS NULL AND total IS NULL", nulls)).isTrue();
        assertThat(insert("id = NULL", nulls)).isFalse();
        assertThat(insert("id NOT IN (1, NULL)", nulls)).isFalse();
        assertThat(insert("id IN (7, NULL)", nulls)).isTrue();
        assertThat(filter("name IS NULL").evaluate(Operation.INSERT, null, ROW))
                .isEqualTo(Truth.FALSE);
        assertThat(filter("name = NULL").evaluate(Operation.INSERT, null, ROW))
                .isEqualTo(Truth.UNKNOWN);
    }

    @Test
    void shouldReadTheBeforeImageWhenTheChangeIsADelete() {
        Object[] before = ROW.clone();
        assertThat(filter("id = 7").test(Operation.DELETE, before, null)).isTrue();
        assertThat(filter("after.id = 7").test(Operation.DELETE, before, null)).isFalse();
        Object[] after = ROW.clone();
        after[0] = 8L;
        assertThat(filter("before.id = 7 AND id = 8").test(Operation.UPDATE, before, after))
                .isTrue();
    }

    @Test
    void shouldMatchLikePatternsWithEscapesWhenTextHasWildcards() {
        Object[] r = ROW.clone();
        r[3] = "50%_off\nnow";
        assertThat(insert("name LIKE '50\\%\\_off%'", r)).isTrue();
        assertThat(insert("name LIKE '50!%!_%' ESCAPE '!'", r)).isTrue();
        assertThat(insert("name LIKE '5_%'", r)).isTrue();
        assertThat(insert("name LIKE '50\\%x%'", r)).isFalse();
        assertThat(insert("name NOT LIKE 'x%'", r)).isTrue();
        assertThat(insert("name LIKE 'Zo_ _'", ROW)).as("_ is one code point").isTrue();
    }

    @Test
    void shouldReportEveryProblemWhenColumnsOrLiteralsDoNotFit() {
        List<String> problems = new ArrayList<>();
        RowFilter.compile(
                PredicateParser.parse(
                        "tenant_idd = 1 AND name = 5 AND day > 'soon' AND id LIKE '1%'"),
                ORDERS,
                problems::add);
        assertThat(problems)
                .containsExactly(
                        "unknown column: table=shop.orders, value=tenant_idd",
                        "literal does not fit column type: column=name, type=STRING, value=5",
                        "literal does not fit column type: column=day, type=DATE, value=soon",
                        "LIKE needs a text column: column=id, type=INT64");
    }

    @Test
    void shouldJudgeTextGivenAsUtf8BytesAsTheText() {
        // The binlog fetcher hands utf8mb4 text over undecoded.
        Object[] bytes = ROW.clone();
        bytes[3] = "Zoë 😀".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(insert("name = 'Zoë 😀'", bytes)).isTrue();
        assertThat(insert("name > 'Zoa'", bytes)).isTrue();
        assertThat(insert("name IN ('x', 'Zoë 😀')", bytes)).isTrue();
        assertThat(insert("name LIKE 'Zo_ %'", bytes)).isTrue();
        assertThat(insert("name <> 'Zoë 😀'", bytes)).isFalse();
    }
}
