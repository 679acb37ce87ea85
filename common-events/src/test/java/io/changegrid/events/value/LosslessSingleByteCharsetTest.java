package io.changegrid.events.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LosslessSingleByteCharsetTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "cp1250", "cp1251", "cp1256", "cp1257", "cp850", "cp852", "cp866", "greek",
                "hebrew", "koi8r", "koi8u", "latin2", "latin5", "latin7", "macce", "macroman",
                "tis620"
            })
    void shouldDecodeEveryByteToADistinctCharAndEncodeItBackWhenTheCharsetIsSingleByte(
            String name) {
        LosslessSingleByteCharset charset = LosslessSingleByteCharset.forSourceCharset(name).get();
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        String text = charset.decode(all);
        assertThat(text).hasSize(256).doesNotContain("\uFFFD");
        assertThat(text.chars().distinct().count()).isEqualTo(256);
        assertThat(charset.bytesOf(text)).isEqualTo(all);
        assertThat(text.getBytes(charset)).isEqualTo(all);
        assertThat(new String(all, charset)).isEqualTo(text);
    }

    @Test
    void shouldMapAnUndefinedByteToTheCharOfItsValueWhenThatCharIsFree() {
        LosslessSingleByteCharset cp1251 =
                LosslessSingleByteCharset.forSourceCharset("CP1251").get();
        assertThat(cp1251.decode(new byte[] {(byte) 0x98, (byte) 0xC0})).isEqualTo("\u0098\u0410");
        assertThat(cp1251.bytesOf("\u0098\u0410")).containsExactly(0x98, 0xC0);
        assertThat(cp1251.sourceName()).isEqualTo("cp1251");
    }

    @Test
    void shouldGiveOneInstancePerCharsetAndNoneForOtherCharsets() {
        assertThat(LosslessSingleByteCharset.forSourceCharset("latin2").get())
                .isSameAs(LosslessSingleByteCharset.forSourceCharset("latin2").get());
        assertThat(LosslessSingleByteCharset.forSourceCharset("utf8mb4")).isEmpty();
        assertThat(LosslessSingleByteCharset.forSourceCharset("latin1")).isEmpty();
        assertThat(LosslessSingleByteCharset.forSourceCharset("sjis")).isEmpty();
    }

    @Test
    void shouldRefuseACharTheMappingGivesNoByteWhenEncoding() {
        LosslessSingleByteCharset cp1251 =
                LosslessSingleByteCharset.forSourceCharset("cp1251").get();
        assertThatThrownBy(() -> cp1251.bytesOf("a\u00e9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("char not in the character set: charset=cp1251, char=U+00E9, index=1");
        assertThat(cp1251.newEncoder().canEncode('\u00e9')).isFalse();
    }
}
