package io.changegrid.fetchers.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LsnTest {

    @Test
    void shouldRoundTripTheServersTextFormWhenParsed() {
        Lsn lsn = Lsn.parse("16/B374D848");
        assertThat(lsn.value()).isEqualTo(0x16_B374_D848L);
        assertThat(lsn).hasToString("16/B374D848");
        assertThat(Lsn.parse("0/0").value()).isZero();
    }

    @Test
    void shouldNameTheTextWhenItIsNotAnLsn() {
        assertThatThrownBy(() -> Lsn.parse("mysql-bin.000001:4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("text=mysql-bin.000001:4");
        assertThatThrownBy(() -> Lsn.parse("1/")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldParseStartPositionsWhenGivenAsSettings() {
        assertThat(StartPosition.parse("current")).isInstanceOf(StartPosition.Current.class);
        assertThat(StartPosition.parse("earliest")).isInstanceOf(StartPosition.Earliest.class);
        assertThat(StartPosition.parse("0/16B3748"))
                .isEqualTo(new StartPosition.At(new Lsn(0x16B3748L)));
        assertThatThrownBy(() -> StartPosition.parse("latest")).hasMessageContaining("text=latest");
    }
}
