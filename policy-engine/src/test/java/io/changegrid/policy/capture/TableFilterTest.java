package io.changegrid.policy.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableFilterTest {

    @Test
    void shouldCaptureEveryUserTableWhenThereAreNoPatterns() {
        TableFilter filter = TableFilter.all();

        assertThat(filter.matches("shop", "orders")).isTrue();
        assertThat(filter.matches("crm", "customers")).isTrue();
    }

    @Test
    void shouldNeverCaptureSystemDatabasesWhenIncludedExplicitly() {
        TableFilter filter = TableFilter.of(List.of("*.*", "mysql.user"), List.of());

        assertThat(filter.matches("mysql", "user")).isFalse();
        assertThat(filter.matches("information_schema", "TABLES")).isFalse();
        assertThat(filter.matches("INFORMATION_SCHEMA", "TABLES")).isFalse();
        assertThat(filter.matches("performance_schema", "threads")).isFalse();
        assertThat(filter.matches("sys", "version")).isFalse();
        assertThat(filter.matches("shop", "orders")).isTrue();
    }

    @Test
    void shouldMatchWildcardsWhenPatternsHaveStars() {
        TableFilter filter =
                TableFilter.of(List.of("shop.order_*", "*.audit", "a*b*c.t"), List.of());

        assertThat(filter.matches("shop", "order_lines")).isTrue();
        assertThat(filter.matches("shop", "order_")).isTrue();
        assertThat(filter.matches("shop", "orders")).isFalse();
        assertThat(filter.matches("crm", "audit")).isTrue();
        assertThat(filter.matches("crm", "audits")).isFalse();
        assertThat(filter.matches("abbbc", "t")).isTrue();
        assertThat(filter.matches("axxbyyc", "t")).isTrue();
        assertThat(filter.matches("axxbyycd", "t")).isFalse();
    }

    @Test
    void shouldLetExcludesWinWhenATableMatchesBoth() {
        TableFilter filter = TableFilter.of(List.of("shop.*"), List.of("shop.tmp_*", "*.secrets"));

        assertThat(filter.matches("shop", "orders")).isTrue();
        assertThat(filter.matches("shop", "tmp_import")).isFalse();
        assertThat(filter.matches("shop", "secrets")).isFalse();
        assertThat(filter.matches("crm", "customers")).isFalse();
    }

    @Test
    void shouldCaptureAllButExcludedWhenOnlyExcludesAreGiven() {
        TableFilter filter = TableFilter.of(List.of(), List.of("*.log_*"));

        assertThat(filter.matches("shop", "orders")).isTrue();
        assertThat(filter.matches("shop", "log_2024")).isFalse();
    }

    @Test
    void shouldMatchCaseSensitivelyWhenNamesDifferInCase() {
        TableFilter filter = TableFilter.of(List.of("shop.Orders"), List.of());

        assertThat(filter.matches("shop", "Orders")).isTrue();
        assertThat(filter.matches("shop", "orders")).isFalse();
    }

    @Test
    void shouldRejectPatternsWhenTheyAreNotDatabaseDotTable() {
        for (String bad : new String[] {"shop", ".orders", "shop.", "a.b.c", ""}) {
            assertThatThrownBy(() -> TableFilter.of(List.of(bad), List.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("pattern=" + bad)
                    .hasMessageContaining("kind=include");
        }
        assertThatThrownBy(() -> TableFilter.of(List.of(), List.of("nodot")))
                .hasMessageContaining("kind=exclude, pattern=nodot");
    }

    @Test
    void shouldKeepPatternsWhenAsked() {
        TableFilter filter = TableFilter.of(List.of("shop.*"), List.of("shop.tmp"));

        assertThat(filter.includes()).containsExactly("shop.*");
        assertThat(filter.excludes()).containsExactly("shop.tmp");
        assertThat(filter).hasToString("TableFilter[includes=[shop.*], excludes=[shop.tmp]]");
    }
}
