package io.changegrid.appliers.typemap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypeMapperTest {

    private static final TypeMapper POSTGRES = new PostgresTypes();
    private static final TypeMapper MARIADB = new MariaDbTypes();

    private static TableSchema table(Column... columns) {
        List<Column> all =
                new ArrayList<>(List.of(new Column("id", ValueType.INT64, "int", false, 0)));
        all.addAll(List.of(columns));
        return new TableSchema(1, 1, "shop", "orders", all, List.of("id"));
    }

    private static String declaration(TypeMapper mapper, Column column) {
        return mapper.map(column).declaration();
    }

    @Test
    void shouldMapEveryValueTypeWhenTargetIsPostgres() {
        for (ValueType type : ValueType.values()) {
            assertThat(POSTGRES.map(Column.of("c", type))).as("%s mapped", type).isNotNull();
        }
        assertThat(declaration(POSTGRES, Column.of("seen", ValueType.TIMESTAMP_TZ)))
                .isEqualTo("timestamptz(6)");
    }

    @Test
    void shouldMapEveryValueTypeButTimestampWithOffsetWhenTargetIsMariaDb() {
        for (ValueType type : ValueType.values()) {
            TargetColumn mapped = MARIADB.map(Column.of("c", type));
            assertThat(mapped == null)
                    .as("%s refused", type)
                    .isEqualTo(type == ValueType.TIMESTAMP_TZ);
        }
    }

    @Test
    void shouldNameEveryRefusedColumnWhenATableHasTypesWithoutLosslessForm() {
        TableSchema schema =
                table(
                        Column.of("placed_at", ValueType.TIMESTAMP_TZ),
                        Column.of("note", ValueType.STRING),
                        Column.of("shipped_at", ValueType.TIMESTAMP_TZ));
        assertThatThrownBy(() -> MARIADB.mapAll(schema))
                .isInstanceOf(UnmappableTypeException.class)
                .hasMessageContaining("table=shop.orders")
                .hasMessageContaining("column=placed_at, type=TIMESTAMP_TZ")
                .hasMessageContaining("column=shipped_at, type=TIMESTAMP_TZ")
                .hasMessageNotContaining("column=note")
                .hasMessageContaining("MySQL's TIMESTAMP and DATETIME keep no time zone offset");
    }

    @Test
    void shouldKeepEachIntegerRangeInTheSmallestPostgresTypeWhenTheSourceIsMySql() {
        assertThat(declaration(POSTGRES, new Column("a", ValueType.INT64, "tinyint(4)", true, 0)))
                .isEqualTo("smallint");
        assertThat(
                        declaration(
                                POSTGRES,
                                new Column("a", ValueType.INT64, "smallint(5) unsigned", true, 0)))
                .isEqualTo("integer");
        assertThat(
                        declaration(
                                POSTGRES,
                                new Column("a", ValueType.INT64, "int(10) unsigned", true, 0)))
                .isEqualTo("bigint");
        assertThat(
                        declaration(
                                POSTGRES,
                                new Column("a", ValueType.UINT64, "bigint(20) unsigned", true, 0)))
                .isEqualTo("numeric(20,0)");
        assertThat(
                        declaration(
                                POSTGRES,
                                new Column("a", ValueType.DECIMAL, "decimal(65,30)", true, 0)))
                .isEqualTo("numeric(65,30)");
        assertThat(
                        declaration(
                                POSTGRES,
                                new Column(
                                        "a",
                                        ValueType.STRING,
                                        "varchar(40) character set latin1",
                                        true,
                                        0)))
                .isEqualTo("varchar(40)");
        assertThat(declaration(POSTGRES, new Column("a", ValueType.TIME, "time(6)", true, 0)))
                .isEqualTo("interval");
        assertThat(declaration(POSTGRES, new Column("a", ValueType.BITS, "bit(12)", true, 12)))
                .isEqualTo("bit(12)");
    }

    @Test
    void shouldKeepTheSourceDeclarationWhenMariaDbReceivesAMySqlColumn() {
        assertThat(
                        declaration(
                                MARIADB,
                                new Column(
                                        "a",
                                        ValueType.STRING,
                                        "enum('a','b') character set utf8mb4",
                                        true,
                                        0)))
                .isEqualTo("enum('a','b') character set utf8mb4");
        assertThat(
                        declaration(
                                MARIADB,
                                new Column(
                                        "a", ValueType.DECIMAL, "decimal(10,2) unsigned", true, 0)))
                .isEqualTo("decimal(10,2) unsigned");
        assertThat(
                        declaration(
                                MARIADB,
                                new Column(
                                        "a",
                                        ValueType.STRING,
                                        "text character set latin1",
                                        true,
                                        0)))
                .isEqualTo("text character set latin1");
        // A column of another source: the widest MySQL type of its value type.
        assertThat(
                        declaration(
                                MARIADB,
                                new Column("a", ValueType.STRING, "character varying", true, 0)))
                .isEqualTo("longtext character set utf8mb4");
        // PostgreSQL spellings that share a MySQL type's first word but not its meaning: a MySQL
        // source names the character set of every character column, and never leaves a decimal
        // unconstrained.
        assertThat(declaration(MARIADB, new Column("a", ValueType.STRING, "text", true, 0)))
                .isEqualTo("longtext character set utf8mb4");
        assertThat(declaration(MARIADB, new Column("a", ValueType.STRING, "text[]", true, 0)))
                .isEqualTo("longtext character set utf8mb4");
        assertThat(declaration(MARIADB, new Column("a", ValueType.DECIMAL, "numeric", true, 0)))
                .isEqualTo("decimal(65,30)");
        assertThat(
                        declaration(
                                MARIADB,
                                new Column("a", ValueType.DECIMAL, "numeric(100,2)", true, 0)))
                .isEqualTo("decimal(65,30)");
        assertThat(
                        declaration(
                                MARIADB,
                                new Column(
                                        "a", ValueType.TIME, "time(6) without time zone", true, 0)))
                .isEqualTo("time(6)");
        assertThat(declaration(POSTGRES, new Column("a", ValueType.DECIMAL, "numeric", true, 0)))
                .isEqualTo("numeric");
    }

    @Test
    void shouldWriteBitsAndTimesExactlyWhenValuesAreRendered() {
        java.util.BitSet bits = new java.util.BitSet();
        bits.set(0);
        bits.set(3);
        assertThat(Values.bitText(bits, 5)).isEqualTo("01001");
        assertThat(Values.bitBytes(bits, 12)).containsExactly(0x00, 0x09);
        assertThat(Values.timeText(java.time.Duration.parse("-PT838H59M59.5S")))
                .isEqualTo("-838:59:59.500000");
        assertThatThrownBy(() -> Values.micros(java.time.Duration.ofNanos(1500), "column=t"))
                .isInstanceOf(ValueNotRepresentableException.class)
                .hasMessageContaining("column=t");
    }

    @Test
    void shouldBindSingleByteTextAsItsSourceBytesOnlyWhenTheTargetColumnHasTheSameCharset() {
        Column cp1251 =
                new Column("c", ValueType.STRING, "varchar(20) character set cp1251", true, 0);
        TargetColumn mapped = MARIADB.map(cp1251);
        assertThat(mapped.placeholder()).isEqualTo("?");
        assertThat(MARIADB.storedIn(mapped, "cp1251").placeholder())
                .isEqualTo("CONVERT(? USING cp1251)");
        assertThat(MARIADB.storedIn(mapped, "utf8mb4")).isSameAs(mapped);
        assertThat(MARIADB.storedIn(mapped, null)).isSameAs(mapped);
        assertThat(POSTGRES.storedIn(POSTGRES.map(cp1251), "cp1251").placeholder()).isEqualTo("?");
        for (String other :
                List.of(
                        "varchar(20) character set utf8mb4",
                        "varchar(20) character set latin1",
                        "enum('a','b') character set cp1251")) {
            TargetColumn column = MARIADB.map(new Column("c", ValueType.STRING, other, true, 0));
            String charset = SourceType.parse(other).charset();
            assertThat(MARIADB.storedIn(column, charset)).as(other).isSameAs(column);
        }
    }
}
