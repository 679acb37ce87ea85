package io.changegrid.appliers.typemap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.List;
import org.junit.jupiter.api.Test;

class MySqlTypeGrammarTest {

    private static final TypeMapper MARIADB = new MariaDbTypes();

    /** Declarations a MySQL/MariaDB relay sends, as the MySQL fetcher's tests produce them. */
    private static final List<String> CANONICAL =
            List.of(
                    "int",
                    "int(11)",
                    "int(10) unsigned zerofill",
                    "bigint(20) unsigned",
                    "tinyint(1)",
                    "decimal(65,30)",
                    "decimal(10,2) unsigned",
                    "float(10,2) unsigned",
                    "double precision",
                    "bit(64)",
                    "datetime(6)",
                    "timestamp(3)",
                    "year(4)",
                    "varchar(1) character set latin1",
                    "char(10) character set utf8mb4",
                    "text character set utf8mb3",
                    "blob compressed",
                    "enum('a','b') character set cp1251",
                    "enum('a','it''s','x\\\\y','a,b','(p)','nl\\n','nul\\0')",
                    "set('x') character set latin1",
                    "json",
                    "geometrycollection",
                    "uuid");

    @Test
    void shouldAcceptEveryDeclarationAMySqlRelaySends() {
        for (String declaration : CANONICAL) {
            assertThat(MySqlTypeGrammar.matches(declaration)).as(declaration).isTrue();
        }
    }

    @Test
    void shouldRefuseADeclarationThatCarriesMoreThanAType() {
        assertThat(MySqlTypeGrammar.matches("INT); DROP TABLE x; --")).isFalse();
        assertThat(MySqlTypeGrammar.matches("int, extra int")).isFalse();
        assertThat(MySqlTypeGrammar.matches("int default 1")).isFalse();
        assertThat(MySqlTypeGrammar.matches("enum('a') character set x; drop table y")).isFalse();
        assertThat(MySqlTypeGrammar.matches("enum('a\\') , ('b')")).isFalse();
        assertThat(MySqlTypeGrammar.matches("varchar(10) /* comment */")).isFalse();
        assertThat(MySqlTypeGrammar.matches("int(1)\n; drop table y")).isFalse();
    }

    @Test
    void shouldRefuseAForgedTypeNamingItWhenItWouldReachMariaDbDdl() {
        TableSchema table =
                new TableSchema(
                        1,
                        1,
                        "shop",
                        "orders",
                        List.of(
                                new Column("id", ValueType.INT64, "int", false, 0),
                                new Column(
                                        "total",
                                        ValueType.INT64,
                                        "INT); DROP TABLE x; --",
                                        true,
                                        0)),
                        List.of("id"));

        assertThatThrownBy(() -> MARIADB.mapAll(table))
                .isInstanceOf(UnmappableTypeException.class)
                .hasMessageContaining("table=shop.orders")
                .hasMessageContaining(
                        "column=total, type=INT64, sourceType=INT); DROP TABLE x; --: not a"
                                + " MariaDB/MySQL column type (refused before it reaches DDL)")
                .hasMessageNotContaining("column=id");
    }

    @Test
    void shouldGiveOtherSourcesTypesTheWidestTypeWithoutPastingThem() {
        Column postgres = new Column("n", ValueType.STRING, "character varying(20)", true, 0);

        assertThat(MARIADB.map(postgres).declaration()).isEqualTo("longtext character set utf8mb4");
    }
}
