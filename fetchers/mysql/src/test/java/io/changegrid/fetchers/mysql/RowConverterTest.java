package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.fetchers.mysql.schema.MySqlColumnTypes;
import java.io.Serializable;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowConverterTest {

    private static final TableSchema SCHEMA =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "items",
                    List.of(
                            MySqlColumnTypes.column("id", "int(11)", null, false),
                            MySqlColumnTypes.column(
                                    "body", "blob /*M!100301 COMPRESSED*/", null, true),
                            MySqlColumnTypes.column("uu", "uuid", null, true),
                            MySqlColumnTypes.column("ip", "inet6", null, true),
                            MySqlColumnTypes.column("e", "enum('a','b')", "utf8mb4", true)),
                    List.of("id"));

    private static final BitSet ALL = BitSet.valueOf(new long[] {0b11111});

    @Test
    void shouldInflateCompressedCellsAndWriteMariaDbTextTypesWhenConvertingARow() {
        Object[] row =
                new RowConverter(SCHEMA)
                        .convert(
                                new Serializable[] {
                                    7,
                                    HexFormat.of().parseHex("8a012c4b4c4a4e1c45c42100"),
                                    HexFormat.of().parseHex("0123456789ab4def8123456789abcdef"),
                                    HexFormat.of().parseHex("00000000000000000000ffff01020304"),
                                    2
                                },
                                ALL);
        assertThat(row)
                .containsExactly(
                        7L,
                        "abc".repeat(100).getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                        "01234567-89ab-4def-8123-456789abcdef",
                        "::ffff:1.2.3.4",
                        "b");
    }

    @Test
    void shouldNameTableColumnValueAndScnWhenACellCannotBeRead() {
        RowConverter converter = new RowConverter(SCHEMA);
        Serializable[] cells = {7, new byte[] {(byte) 0x8a, 1}, null, null, 3};
        IllegalArgumentException refusal =
                org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalArgumentException.class, () -> converter.convert(cells, ALL));
        assertThat(refusal)
                .hasMessageStartingWith(
                        "table=shop.items, column=body, sourceType=blob compressed, value=0x8a01,");
        assertThat(RowRefusal.of(null, refusal, 4294967396L, "binlog.000001:100", "0-1-42"))
                .hasMessageStartingWith("row value refused: table=shop.items, column=body")
                .hasMessageEndingWith(", scn=4294967396, position=binlog.000001:100, gtid=0-1-42");
        Serializable[] badEnum = {7, null, null, null, 3};
        assertThatThrownBy(() -> converter.convert(badEnum, ALL))
                .hasMessageStartingWith("table=shop.items, column=e, sourceType=enum('a','b')")
                .hasMessageContaining("value=3");
    }

    @Test
    void shouldRefuseACapturedTableWhenTheBinlogNamesAColumnTypeNoReaderKnows() {
        TableMapEventData map = new TableMapEventData();
        map.setColumnTypes(new byte[] {3, (byte) 252, (byte) 200, (byte) 254, (byte) 247});
        assertThatThrownBy(
                        () ->
                                MariaDbTableMapDeserializer.requireDecodable(
                                        map, SCHEMA, "binlog.000001:100"))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageStartingWith(
                        "captured table has a column type the binlog reader cannot decode:"
                                + " table=shop.items, column=uu, sourceType=uuid, binlogType=200,"
                                + " position=binlog.000001:100");
    }
}
