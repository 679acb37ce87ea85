package io.changegrid.fetchers.mysql.schema;

import static io.changegrid.events.value.ValueType.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.LosslessSingleByteCharset;
import io.changegrid.events.value.ValueType;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MySqlColumnTypesTest {

    @Test
    void shouldMapEveryMySqlTypeWhenReadFromInformationSchema() {
        expect("tinyint(4)", null, INT64, "tinyint(4)");
        expect("tinyint(3) unsigned", null, INT64, "tinyint(3) unsigned");
        expect("smallint(6)", null, INT64, "smallint(6)");
        expect("mediumint(8) unsigned", null, INT64, "mediumint(8) unsigned");
        expect("int(11)", null, INT64, "int(11)");
        expect("int(10) unsigned zerofill", null, INT64, "int(10) unsigned zerofill");
        expect("bigint(20)", null, INT64, "bigint(20)");
        expect("bigint(20) unsigned", null, UINT64, "bigint(20) unsigned");
        expect("bigint unsigned", null, UINT64, "bigint unsigned");
        expect("year(4)", null, INT64, "year(4)");
        expect("float", null, FLOAT32, "float");
        expect("float(10,2) unsigned", null, FLOAT32, "float(10,2) unsigned");
        expect("double", null, FLOAT64, "double");
        expect("decimal(65,30)", null, DECIMAL, "decimal(65,30)");
        expect("date", null, DATE, "date");
        expect("time(3)", null, TIME, "time(3)");
        expect("datetime(6)", null, DATETIME, "datetime(6)");
        expect("timestamp", null, TIMESTAMP, "timestamp");
        expect("char(10)", "utf8mb4", STRING, "char(10) character set utf8mb4");
        expect("varchar(100)", "latin1", STRING, "varchar(100) character set latin1");
        expect("tinytext", "ucs2", STRING, "tinytext character set ucs2");
        expect("text", "utf8mb3", STRING, "text character set utf8mb3");
        expect("mediumtext", "utf8mb4", STRING, "mediumtext character set utf8mb4");
        expect("longtext", "utf8mb4", STRING, "longtext character set utf8mb4");
        expect("enum('a','b')", "utf8mb4", STRING, "enum('a','b') character set utf8mb4");
        expect("set('x')", "latin1", STRING, "set('x') character set latin1");
        expect("binary(4)", null, BYTES, "binary(4)");
        expect("varbinary(100)", null, BYTES, "varbinary(100)");
        expect("tinyblob", null, BYTES, "tinyblob");
        expect("blob", null, BYTES, "blob");
        expect("mediumblob", null, BYTES, "mediumblob");
        expect("longblob", null, BYTES, "longblob");
        expect("json", null, JSON, "json");
        expect("geometry", null, GEOMETRY, "geometry");
        expect("point", null, GEOMETRY, "point");
        expect("linestring", null, GEOMETRY, "linestring");
        expect("polygon", null, GEOMETRY, "polygon");
        expect("multipoint", null, GEOMETRY, "multipoint");
        expect("multilinestring", null, GEOMETRY, "multilinestring");
        expect("multipolygon", null, GEOMETRY, "multipolygon");
        expect("geometrycollection", null, GEOMETRY, "geometrycollection");
        expect("geomcollection", null, GEOMETRY, "geomcollection");
        expect("uuid", null, STRING, "uuid");
        expect("inet4", null, STRING, "inet4");
        expect("inet6", null, STRING, "inet6");
    }

    @Test
    void shouldCarryBitWidthWhenTheColumnIsBit() {
        Column bit64 = MySqlColumnTypes.column("flags", "bit(64)", null, true);
        Column bit1 = MySqlColumnTypes.column("flag", "bit(1)", null, false);

        assertThat(bit64).isEqualTo(new Column("flags", BITS, "bit(64)", true, 64));
        assertThat(bit1).isEqualTo(new Column("flag", BITS, "bit(1)", false, 1));
    }

    @Test
    void shouldMapToBytesWhenACharacterColumnIsInTheBinaryCharset() {
        assertThat(MySqlColumnTypes.column("c", "varchar(10)", "binary", true).type())
                .isEqualTo(BYTES);
        assertThat(MySqlColumnTypes.column("c", "enum('a')", "binary", true).type())
                .isEqualTo(STRING);
    }

    @Test
    void shouldKeepLabelCaseWhenFoldingTheType() {
        Column column = MySqlColumnTypes.column("size", "ENUM('Small','LARGE')", "UTF8MB4", true);

        assertThat(column.sourceType()).isEqualTo("enum('Small','LARGE') character set utf8mb4");
    }

    @Test
    void shouldAcceptTheCharsetInTheTypeWhenItIsCanonicalAlready() {
        Column column =
                MySqlColumnTypes.column("c", "varchar(5) character set latin1", null, false);

        assertThat(column.sourceType()).isEqualTo("varchar(5) character set latin1");
        assertThat(MySqlColumnTypes.characterSet(column)).contains("latin1");
    }

    @Test
    void shouldRejectUnknownTypesWhenNamingTheColumn() {
        assertThatThrownBy(() -> MySqlColumnTypes.column("v", "vector(3)", null, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unsupported column type: column=v, type=vector(3)");
        assertThatThrownBy(() -> MySqlColumnTypes.column("c", "varchar(3)", null, true))
                .hasMessageContaining("character column without character set: column=c");
        assertThatThrownBy(() -> MySqlColumnTypes.column("c", "int(", null, true))
                .hasMessageContaining("malformed column type: column=c");
    }

    @Test
    void shouldParseLabelsWhenTheyHoldQuotesBackslashesAndCommas() {
        Column column =
                MySqlColumnTypes.column(
                        "e",
                        "enum('a','it''s','x\\\\y','a,b','(p)','nl\\n','nul\\0')",
                        "utf8mb4",
                        true);

        assertThat(MySqlColumnTypes.enumLabels(column))
                .containsExactly("a", "it's", "x\\y", "a,b", "(p)", "nl\n", "nul\0");
    }

    @Test
    void shouldQuoteLabelsAsInformationSchemaDoesWhenRendering() {
        List<String> labels = List.of("a", "it's", "x\\y", "nl\n", "cr\r", "nul\0", "tab\t");

        String quoted = MySqlColumnType.quoteLabels(labels);

        assertThat(quoted).isEqualTo("'a','it''s','x\\\\y','nl\\n','cr\\r','nul\\0','tab\t'");
        Column column = MySqlColumnTypes.column("e", "set(" + quoted + ")", "latin1", true);
        assertThat(MySqlColumnTypes.setLabels(column)).isEqualTo(labels);
    }

    @Test
    void shouldRefuseLabelsWhenTheColumnIsNotEnumOrSet() {
        Column column = MySqlColumnTypes.column("c", "varchar(3)", "utf8mb4", true);

        assertThatThrownBy(() -> MySqlColumnTypes.enumLabels(column))
                .hasMessageContaining("not an enum column: column=c");
        assertThatThrownBy(() -> MySqlColumnTypes.setLabels(column))
                .hasMessageContaining("not an set column: column=c");
    }

    @Test
    void shouldGiveJavaCharsetsWhenAskedForCharacterColumns() {
        assertThat(MySqlColumnTypes.charset(text("utf8mb4"))).isEqualTo(StandardCharsets.UTF_8);
        assertThat(MySqlColumnTypes.charset(text("utf8mb3"))).isEqualTo(StandardCharsets.UTF_8);
        assertThat(MySqlColumnTypes.charset(text("utf8"))).isEqualTo(StandardCharsets.UTF_8);
        assertThat(MySqlColumnTypes.charset(text("latin1"))).isSameAs(MySqlLatin1Charset.INSTANCE);
        assertThat(MySqlColumnTypes.charset(text("ascii"))).isEqualTo(StandardCharsets.US_ASCII);
        assertThat(MySqlColumnTypes.charset(text("ucs2"))).isEqualTo(StandardCharsets.UTF_16BE);
        assertThat(MySqlColumnTypes.charset(text("utf16"))).isEqualTo(StandardCharsets.UTF_16BE);
        assertThat(MySqlColumnTypes.charset(text("utf16le"))).isEqualTo(StandardCharsets.UTF_16LE);
        assertThat(MySqlColumnTypes.charset(text("utf32")).name()).isEqualTo("UTF-32BE");
        assertThat(MySqlColumnTypes.charset(text("binary"))).isEqualTo(StandardCharsets.ISO_8859_1);
        assertThat(MySqlColumnTypes.charset(text("cp1251")))
                .isInstanceOf(LosslessSingleByteCharset.class)
                .extracting(Charset::name)
                .isEqualTo("x-changegrid-lossless-windows-1251");
        assertThat(MySqlColumnTypes.charset(text("sjis")).name()).isEqualTo("Shift_JIS");
    }

    @Test
    void shouldRefuseACharsetWhenTheColumnHasNoneOrTheJdkCannotDecodeIt() {
        assertThatThrownBy(
                        () ->
                                MySqlColumnTypes.charset(
                                        MySqlColumnTypes.column("n", "int(11)", null, true)))
                .hasMessage("not a character column: column=n, type=int(11)");
        assertThatThrownBy(() -> MySqlColumnTypes.charset(text("armscii8")))
                .hasMessageContaining("charset=armscii8, column=t");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "cp1250", "cp1251", "cp1256", "cp1257", "cp850", "cp852", "cp866", "greek",
                "hebrew", "koi8r", "koi8u", "latin1", "latin2", "latin5", "latin7", "macce",
                "macroman", "tis620"
            })
    void shouldDecodeEveryByteToADistinctCharAndBackWhenTheCharsetIsSingleByte(String name) {
        Charset charset = MySqlColumnTypes.charset(text(name));
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        String decoded = MySqlColumnTypes.decode(charset, all);
        assertThat(decoded).hasSize(256).doesNotContain("\uFFFD");
        assertThat(decoded.getBytes(charset)).isEqualTo(all);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sjis", "euckr", "ucs2"})
    void shouldRefuseBytesAMultiByteCharsetDoesNotDefine(String name) {
        Charset charset = MySqlColumnTypes.charset(text(name));
        assertThatThrownBy(() -> MySqlColumnTypes.decode(charset, new byte[] {(byte) 0x81}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bytes not defined in the column's character set");
    }

    @Test
    void shouldDecodeLatin1LosslesslyWhenBytesAreUndefinedInCp1252() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String text = MySqlColumnTypes.decode(MySqlColumnTypes.charset(text("latin1")), all);

        assertThat(text).hasSize(256);
        assertThat(text.charAt(0x80)).isEqualTo('\u20AC');
        assertThat(text.charAt(0x81)).isEqualTo('\u0081');
        assertThat(text.charAt(0x8D)).isEqualTo('\u008D');
        assertThat(text.charAt(0x8F)).isEqualTo('\u008F');
        assertThat(text.charAt(0x90)).isEqualTo('\u0090');
        assertThat(text.charAt(0x9D)).isEqualTo('\u009D');
        assertThat(text.charAt(0xE9)).isEqualTo('é');
        assertThat(text.chars().distinct().count()).isEqualTo(256);
        assertThat(new String(all, MySqlLatin1Charset.INSTANCE)).isEqualTo(text);
        assertThat(text.getBytes(MySqlLatin1Charset.INSTANCE)).isEqualTo(all);
    }

    @Test
    void shouldReportUnmappableCharsWhenEncodingOutsideLatin1() {
        assertThat(MySqlLatin1Charset.INSTANCE.newEncoder().canEncode("é€")).isTrue();
        assertThat(MySqlLatin1Charset.INSTANCE.newEncoder().canEncode("日")).isFalse();
        assertThat("a日".getBytes(MySqlLatin1Charset.INSTANCE)).containsExactly('a', '?');
    }

    private static Column text(String charset) {
        return MySqlColumnTypes.column("t", "text", charset, true);
    }

    private static void expect(
            String columnType, String charset, ValueType type, String sourceType) {
        Column column = MySqlColumnTypes.column("c", columnType, charset, true);
        assertThat(column.type()).as(columnType).isEqualTo(type);
        assertThat(column.sourceType()).as(columnType).isEqualTo(sourceType);
        assertThat(column.width()).as(columnType).isZero();
    }
}
