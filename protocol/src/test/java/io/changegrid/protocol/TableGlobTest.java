package io.changegrid.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TableGlobTest {

    @Test
    void shouldMatchEachPartOnItsOwnWhenMatchingATable() {
        TableGlob pattern = TableGlob.parse("shop.order_*");

        assertThat(pattern.matches("shop", "order_items")).isTrue();
        assertThat(pattern.matches("shop", "order_")).isTrue();
        assertThat(pattern.matches("shop", "orders")).isFalse();
        assertThat(pattern.matches("shopping", "order_items")).isFalse();
        assertThat(TableGlob.parse("*.*").matches("crm", "users")).isTrue();
        assertThat(TableGlob.parse("*.a*b*c").matches("x", "aXbYbZc")).isTrue();
        assertThat(TableGlob.parse("*.a*b*c").matches("x", "aXcYb")).isFalse();
    }

    @Test
    void shouldCompareNamesCaseSensitivelyAsMySqlWithLowerCaseTableNamesZero() {
        assertThat(TableGlob.parse("shop.orders").matches("shop", "Orders")).isFalse();
        assertThat(TableGlob.parse("SHOP.*").matches("shop", "orders")).isFalse();
        assertThat(TableGlob.covers("SHOP.*", "shop.orders")).isFalse();
        assertThat(TableGlob.overlaps("shop.orders", "SHOP.ORDERS")).isFalse();
    }

    @Test
    void shouldRefuseTextThatIsNotDatabaseDotTableWhenParsing() {
        for (String bad : new String[] {"shop", ".orders", "shop.", "a.b.c", ""}) {
            assertThatThrownBy(() -> TableGlob.parse(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("expected a database.table pattern: value=" + bad);
        }
    }

    @Test
    void shouldCoverOnlyPatternsWhoseEveryNameItMatchesWhenComparingPatterns() {
        assertThat(TableGlob.covers("shop.*", "shop.orders")).isTrue();
        assertThat(TableGlob.covers("shop.*", "shop.o*")).isTrue();
        assertThat(TableGlob.covers("*.*", "*.*")).isTrue();
        assertThat(TableGlob.covers("*", "*.*")).isTrue();
        assertThat(TableGlob.covers("shop.o*", "shop.*")).isFalse();
        assertThat(TableGlob.covers("shop.*", "*.*")).isFalse();
        assertThat(TableGlob.covers("a*c*", "a*")).isFalse();
    }

    @Test
    void shouldOverlapWhenSomeNameMatchesBothPatterns() {
        assertThat(TableGlob.overlaps("shop.a*", "shop.*b")).as("shop.ab").isTrue();
        assertThat(TableGlob.overlaps("shop.*", "*.orders")).isTrue();
        assertThat(TableGlob.overlaps("*", "crm.users")).isTrue();
        assertThat(TableGlob.overlaps("shop.a*", "shop.b*")).isFalse();
        assertThat(TableGlob.overlaps("shop.*x", "shop.*y")).isFalse();
        assertThat(TableGlob.overlaps("shop.orders", "shop.items")).isFalse();
        assertThat(TableGlob.overlaps("a*b*c", "*bc")).isTrue();
    }
}
