package io.changegrid.fetchers.mysql.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import java.nio.charset.Charset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MySqlSingleByteCharsetTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "cp1250", "cp1251", "cp1256", "cp1257", "cp850", "cp852", "cp866", "greek",
                "hebrew", "koi8r", "koi8u", "latin1", "latin2", "latin5", "latin7", "macce",
                "macroman", "tis620"
            })
    void shouldDecodeEveryByteToADistinctCharAndBackWhenTheCharsetIsSingleByte(String name) {
        Charset charset = MySqlColumnTypes.charset(column(name));
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        String text = MySqlColumnTypes.decode(charset, all);
        assertThat(text).hasSize(256).doesNotContain("\uFFFD");
        assertThat(text.getBytes(charset)).isEqualTo(all);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp1251"})
    void shouldDecodeAnUndefinedByteToTheCharOfItsValueWhenThatCharIsFree(String name) {
        Charset charset = MySqlColumnTypes.charset(column(name));
        assertThat(MySqlColumnTypes.decode(charset, new byte[] {(byte) 0x98, (byte) 0xC0}))
                .isEqualTo("\u0098\u0410");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sjis", "euckr", "ucs2"})
    void shouldRefuseBytesAMultiByteCharsetDoesNotDefine(String name) {
        Charset charset = MySqlColumnTypes.charset(column(name));
        assertThatThrownBy(() -> MySqlColumnTypes.decode(charset, new byte[] {(byte) 0x81}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bytes not defined in the column's character set");
    }

    private static Column column(String charset) {
        return MySqlColumnTypes.column("c", "varchar(10)", charset, true);
    }
}
