package io.changegrid.fetchers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PgValuesTest {

    @Test
    void shouldKeepNumericScaleWhenParsed() {
        assertThat(PgValues.parse(PgValueKind.NUMERIC, "12.3400", 0))
                .isEqualTo(new BigDecimal("12.3400"));
    }

    @Test
    void shouldRefuseNumericNaNAndInfinityNamingTheValue() {
        for (String text : new String[] {"NaN", "Infinity", "-Infinity"}) {
            assertThatThrownBy(() -> PgValues.parse(PgValueKind.NUMERIC, text, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("value=" + text);
        }
    }

    @Test
    void shouldReadTimestampsWithAnyOffsetWhenTheSessionZoneIsNotUtc() {
        assertThat(PgValues.parse(PgValueKind.TIMESTAMPTZ, "2024-02-29 23:59:59.5+05:30", 0))
                .isEqualTo(Instant.parse("2024-02-29T18:29:59.5Z"));
        assertThat(PgValues.parse(PgValueKind.TIMESTAMPTZ, "2024-01-01 00:00:00-03", 0))
                .isEqualTo(Instant.parse("2024-01-01T03:00:00Z"));
        assertThat(PgValues.parse(PgValueKind.TIMESTAMPTZ, "1900-01-01 00:00:00+00:09:21", 0))
                .isEqualTo(Instant.parse("1899-12-31T23:50:39Z"));
    }

    @Test
    void shouldCountBcYearsAsIsoWhenDatesAreBeforeTheEra() {
        assertThat(PgValues.parse(PgValueKind.DATE, "0001-01-01 BC", 0))
                .isEqualTo(new SqlDate(0, 1, 1));
        assertThat(PgValues.parse(PgValueKind.TIMESTAMP, "0044-03-15 12:00:00 BC", 0))
                .isEqualTo(
                        new SqlDateTime(new SqlDate(-43, 3, 15), Duration.ofHours(12).toNanos()));
        assertThat(PgValues.parse(PgValueKind.DATE, "294276-12-31", 0))
                .isEqualTo(new SqlDate(294276, 12, 31));
    }

    @Test
    void shouldRefuseInfiniteDatesNamingTheValue() {
        assertThatThrownBy(() -> PgValues.parse(PgValueKind.TIMESTAMP, "infinity", 0))
                .hasMessageContaining("value=infinity");
        assertThatThrownBy(() -> PgValues.parse(PgValueKind.DATE, "-infinity", 0))
                .hasMessageContaining("value=-infinity");
    }

    @Test
    void shouldAllowMidnightAtTheEndWhenTimeIs24() {
        assertThat(PgValues.parse(PgValueKind.TIME, "24:00:00", 0)).isEqualTo(Duration.ofHours(24));
        assertThat(PgValues.parse(PgValueKind.TIME, "00:00:00.000001", 0))
                .isEqualTo(Duration.ofNanos(1_000));
    }

    @Test
    void shouldDecodeHexByteaWhenBinary() {
        assertThat((byte[]) PgValues.parse(PgValueKind.BYTEA, "\\x00ff", 0))
                .containsExactly(0, 0xff);
        assertThat((byte[]) PgValues.parse(PgValueKind.BYTEA, "\\x", 0)).isEmpty();
    }
}
