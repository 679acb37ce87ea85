package io.changegrid.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SourceChoiceTest {

    @Test
    void shouldChooseMariaDbWhenNothingIsSet() {
        assertThat(SourceChoice.resolve(null, null)).isEqualTo(SourceChoice.MARIADB);
        assertThat(SourceChoice.resolve(" ", "")).isEqualTo(SourceChoice.MARIADB);
    }

    @Test
    void shouldPreferSystemPropertyWhenBothAreSet() {
        assertThat(SourceChoice.resolve("mysql8", "mariadb")).isEqualTo(SourceChoice.MYSQL8);
        assertThat(SourceChoice.resolve(null, " MySQL8 ")).isEqualTo(SourceChoice.MYSQL8);
    }

    @Test
    void shouldNameOriginAndAllowedValuesWhenValueIsUnknown() {
        assertThatThrownBy(() -> SourceChoice.resolve(null, "postgres"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "unknown test source: environment variable CHANGEGRID_TEST_SOURCE=postgres,"
                                + " allowed=[mariadb, mysql8]");
    }
}
