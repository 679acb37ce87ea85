package io.changegrid.events.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TemporalTextTest {

    @Test
    void shouldFormatMySqlTimeRangeWhenHoursExceedADay() {
        assertThat(TemporalText.formatTime(Duration.parse("-PT838H59M59S")))
                .isEqualTo("-838:59:59");
        assertThat(TemporalText.formatTime(Duration.ofNanos(1_500))).isEqualTo("00:00:00.0000015");
        assertThat(TemporalText.parseTime("838:59:59.000001"))
                .isEqualTo(Duration.parse("PT838H59M59.000001S"));
    }

    @Test
    void shouldKeepZeroDatesThatLocalDateCannotHold() {
        assertThat(SqlDate.parse("0000-00-00")).isEqualTo(SqlDate.ZERO);
        assertThat(SqlDate.parse("2024-00-15").hasZeroPart()).isTrue();
        assertThat(SqlDateTime.parse("0000-00-00 00:00:00")).isEqualTo(SqlDateTime.ZERO);
        assertThat(new SqlDate(-44, 3, 15)).hasToString("-0044-03-15");
        assertThat(SqlDate.parse("-0044-03-15")).isEqualTo(new SqlDate(-44, 3, 15));
    }

    @Test
    void shouldNameTheTextWhenItIsNotATemporalValue() {
        assertThatThrownBy(() -> SqlDate.parse("2024-13-01"))
                .hasMessage("not a date: text=2024-13-01");
        assertThatThrownBy(() -> SqlDate.parse("24-01-01")).hasMessage("not a date: text=24-01-01");
        assertThatThrownBy(() -> SqlDateTime.parse("2024-01-01T24:00:00"))
                .hasMessage("not a time: text=2024-01-01T24:00:00");
        assertThatThrownBy(() -> TemporalText.parseTime("1:00:00"))
                .hasMessage("not a time: text=1:00:00");
        assertThatThrownBy(() -> TemporalText.parseTime("10:00:00."))
                .hasMessage("not a time: text=10:00:00.");
    }
}
