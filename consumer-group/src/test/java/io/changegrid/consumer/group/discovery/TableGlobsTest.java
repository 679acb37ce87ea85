package io.changegrid.consumer.group.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TableGlobsTest {

    @Test
    void shouldCoverOnlyPatternsWhoseEveryNameItMatchesWhenComparingPatterns() {
        assertThat(TableGlobs.covers("shop.*", "shop.orders")).isTrue();
        assertThat(TableGlobs.covers("shop.*", "shop.o*")).isTrue();
        assertThat(TableGlobs.covers("*.*", "*.*")).isTrue();
        assertThat(TableGlobs.covers("*", "*.*")).isTrue();
        assertThat(TableGlobs.covers("SHOP.*", "shop.orders")).as("case-insensitive").isTrue();
        assertThat(TableGlobs.covers("shop.o*", "shop.*")).isFalse();
        assertThat(TableGlobs.covers("shop.*", "*.*")).isFalse();
        assertThat(TableGlobs.covers("a*c*", "a*")).isFalse();
    }

    @Test
    void shouldOverlapWhenSomeNameMatchesBothPatterns() {
        assertThat(TableGlobs.overlaps("shop.a*", "shop.*b")).as("shop.ab").isTrue();
        assertThat(TableGlobs.overlaps("shop.*", "*.orders")).isTrue();
        assertThat(TableGlobs.overlaps("*", "crm.users")).isTrue();
        assertThat(TableGlobs.overlaps("shop.orders", "SHOP.ORDERS")).isTrue();
        assertThat(TableGlobs.overlaps("shop.a*", "shop.b*")).isFalse();
        assertThat(TableGlobs.overlaps("shop.*x", "shop.*y")).isFalse();
        assertThat(TableGlobs.overlaps("shop.orders", "shop.items")).isFalse();
        assertThat(TableGlobs.overlaps("a*b*c", "*bc")).isTrue();
    }
}
