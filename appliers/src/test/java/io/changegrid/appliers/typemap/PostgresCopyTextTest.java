package io.changegrid.appliers.typemap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class PostgresCopyTextTest {

    private static String text(ValueType type, String sourceType, Object value) {
        StringBuilder out = new StringBuilder();
        PostgresCopyText.append(out, new Column("c", type, sourceType, true, 0), value);
        return out.toString();
    }

    @Test
    void shouldEscapeCopyDelimitersWhenTextHoldsThem() {
        assertThat(text(ValueType.STRING, "text", "a\\b\tc\nd\re")).isEqualTo("a\\\\b\\tc\\nd\\re");
        assertThat(text(ValueType.JSON, "json", "{\"k\":\"\\u0041\"}"))
                .isEqualTo("{\"k\":\"\\\\u0041\"}");
    }

    @Test
    void shouldWriteTypedFormsWhenValuesAreNotText() {
        assertThat(text(ValueType.BYTES, "blob", new byte[] {0, (byte) 0xff, 0x1a}))
                .isEqualTo("\\\\x00ff1a");
        assertThat(text(ValueType.TIME, "time(6)", Duration.ofMillis(-500)))
                .isEqualTo("-0.500000 seconds");
        assertThat(text(ValueType.TIME, "time", Duration.ofHours(838).plusSeconds(3599)))
                .isEqualTo("3020399.000000 seconds");
        assertThat(text(ValueType.DECIMAL, "decimal(20,6)", new BigDecimal("1E+3").setScale(6)))
                .isEqualTo("1000.000000");
        assertThat(text(ValueType.TIMESTAMP, "timestamp(6)", Instant.ofEpochSecond(0, 1000)))
                .isEqualTo("1970-01-01 00:00:00.000001+00");
        assertThat(text(ValueType.FLOAT64, "double", Double.NaN)).isEqualTo("NaN");
    }

    @Test
    void shouldRefuseWhenPostgresCannotHoldTheValue() {
        assertThatThrownBy(() -> text(ValueType.STRING, "text", "a\0b"))
                .isInstanceOf(ValueNotRepresentableException.class)
                .hasMessageContaining("column=c");
        assertThatThrownBy(() -> text(ValueType.DATE, "date", new SqlDate(2024, 0, 1)))
                .isInstanceOf(ValueNotRepresentableException.class);
        assertThatThrownBy(() -> text(ValueType.TIMESTAMP, "timestamp(3)", Instant.EPOCH))
                .isInstanceOf(ValueNotRepresentableException.class)
                .hasMessageContaining("zero timestamp")
                .hasMessageContaining("value=0000-00-00 00:00:00");
    }

    @Test
    void shouldWriteEpochZeroWhenTheTimestampIsNotMySqls() {
        // Only a MySQL/MariaDB TIMESTAMP column has no valid value at epoch second 0.
        assertThat(text(ValueType.TIMESTAMP, "timestamp with time zone", Instant.EPOCH))
                .isEqualTo("1970-01-01 00:00:00.000000+00");
    }

    @Test
    void shouldWriteTheInstantInUtcWhenATimestampHasAnOffset() {
        var seen =
                OffsetDateTime.of(
                        2026, 3, 29, 1, 30, 0, 123_456_000, ZoneOffset.ofHoursMinutes(-5, -30));
        assertThat(text(ValueType.TIMESTAMP_TZ, "TIMESTAMP(6) WITH TIME ZONE", seen))
                .isEqualTo("2026-03-29 07:00:00.123456+00");
    }

    @Test
    void shouldRefuseWhenATimestampWithAnOffsetHasNanoseconds() {
        var seen = OffsetDateTime.of(2026, 1, 1, 23, 0, 0, 1, ZoneOffset.ofHours(14));
        assertThatThrownBy(() -> text(ValueType.TIMESTAMP_TZ, "TIMESTAMP(9) WITH TIME ZONE", seen))
                .isInstanceOf(ValueNotRepresentableException.class)
                .hasMessageContaining("column=c")
                .hasMessageContaining("finer than microseconds");
    }
}
