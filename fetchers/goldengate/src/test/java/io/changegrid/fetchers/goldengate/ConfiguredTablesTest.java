package io.changegrid.fetchers.goldengate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.schema.Column;
import io.changegrid.events.value.ValueType;
import org.junit.jupiter.api.Test;

/** Table definitions in the relay's configuration and the Oracle type names they use. */
class ConfiguredTablesTest {

    @Test
    void shouldMapOracleTypesAndValueTypesWhenParsingAnEntry() {
        TableDefinition table =
                ConfiguredTables.parse(
                        "SHOP.ORDERS(ID NUMBER(10) not null key, AMOUNT NUMBER(12,2), BIG NUMBER(19),"
                                + " N NUMBER, NOTE VARCHAR2(200), CREATED DATE, AT TIMESTAMP(6) WITH TIME ZONE,"
                                + " RAWS RAW(16), D value:date, F BINARY_DOUBLE)");
        assertThat(table.database()).isEqualTo("SHOP");
        assertThat(table.table()).isEqualTo("ORDERS");
        assertThat(table.key()).containsExactly("ID");
        assertThat(table.columns().stream().map(Column::type))
                .containsExactly(
                        ValueType.INT64,
                        ValueType.DECIMAL,
                        ValueType.DECIMAL,
                        ValueType.DECIMAL,
                        ValueType.STRING,
                        ValueType.DATETIME,
                        ValueType.TIMESTAMP_TZ,
                        ValueType.BYTES,
                        ValueType.DATE,
                        ValueType.FLOAT64);
        assertThat(table.columns().get(0).nullable()).isFalse();
        assertThat(table.columns().get(1).sourceType()).isEqualTo("NUMBER(12,2)");
    }

    @Test
    void shouldNameTheColumnAndTypeWhenATypeIsNotCarried() {
        assertThatThrownBy(() -> ConfiguredTables.parse("SHOP.T(ID NUMBER(10), G SDO_GEOMETRY)"))
                .hasMessage(
                        "column type the fetcher cannot carry: column=G, type=SDO_GEOMETRY,"
                                + " entry=SHOP.T(ID NUMBER(10), G SDO_GEOMETRY)");
        assertThatThrownBy(() -> ConfiguredTables.parse("ORDERS(ID NUMBER)"))
                .hasMessageContaining("table name is not SCHEMA.TABLE: name=ORDERS");
        assertThatThrownBy(() -> ConfiguredTables.parse("SHOP.T(ID)"))
                .hasMessageContaining("column without a type");
    }
}
