package io.changegrid.gridkit.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OperationMixTest {

    @Test
    void shouldReadSharesWhenGivenInOrder() {
        assertThat(OperationMix.parse("70,20,10")).isEqualTo(new OperationMix(70, 20, 10));
    }

    @Test
    void shouldReadSharesWhenNamedAndMissingAreZero() {
        assertThat(OperationMix.parse("update=30, insert=70"))
                .isEqualTo(new OperationMix(70, 30, 0));
    }

    @Test
    void shouldNameTheValueWhenSharesDoNotAddUp() {
        assertThatThrownBy(() -> OperationMix.parse("70,20,20"))
                .hasMessageContaining("adding up to 100")
                .hasMessageContaining("value=70,20,20");
    }

    @Test
    void shouldRefuseWhenThereAreNoInserts() {
        assertThatThrownBy(() -> OperationMix.parse("delete=100"))
                .hasMessageContaining("needs inserts");
    }

    @Test
    void shouldNameTheOperationWhenItIsUnknown() {
        assertThatThrownBy(() -> OperationMix.parse("insert=50,upsert=50"))
                .hasMessageContaining("value=upsert");
    }
}
