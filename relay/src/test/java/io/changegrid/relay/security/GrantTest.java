package io.changegrid.relay.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import io.changegrid.policy.Policies;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.config.PolicyConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class GrantTest {

    static final TableSchema CUSTOMERS =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "customers",
                    List.of(
                            Column.of("id", ValueType.INT64),
                            Column.of("name", ValueType.STRING),
                            Column.of("ssn", ValueType.STRING)),
                    List.of("id"));
    static final TableSchema SALARIES =
            new TableSchema(
                    2,
                    1,
                    "hr",
                    "salaries",
                    List.of(Column.of("id", ValueType.INT64), Column.of("amount", ValueType.INT64)),
                    List.of("id"));
    static final List<TableSchema> SERVED = List.of(CUSTOMERS, SALARIES);

    static final AccessRules RULES =
            AccessRules.parse(
                    YamlConfigFile.parse(
                            """
                            principals:
                              orders-app:
                                tables: [shop.*]
                                columns: {shop.customers: [id, name]}
                              ops: {operations: true}
                            """,
                            "access"));

    @Test
    void shouldRefuseNamingTheTableWhenTheSubscriptionNamesOneNotGranted() {
        Grant grant = RULES.grant("orders-app");
        assertThat(grant.refusal(plan("[shop.customers, hr.salaries]", null), SERVED))
                .contains("principal=orders-app")
                .contains("hr.salaries")
                .doesNotContain("shop.customers");
    }

    @Test
    void shouldNarrowAPatternToTheGrantedTables() {
        Grant grant = RULES.grant("orders-app");
        assertThat(grant.refusal(plan("['*.*']", null), SERVED)).isNull();
        assertThat(grant.mayStreamVersion(CUSTOMERS)).isTrue();
        assertThat(grant.mayStreamVersion(SALARIES)).isFalse();
    }

    @Test
    void shouldRefuseWhenAPredicateReadsAHiddenColumn() {
        Grant grant = RULES.grant("orders-app");
        assertThat(grant.refusal(plan("[shop.customers]", "ssn = 'x'"), SERVED))
                .contains("columns not granted")
                .contains("ssn");
        assertThat(grant.refusal(plan("[shop.customers]", "name = 'x'"), SERVED)).isNull();
    }

    @Test
    void shouldShowOnlyGrantedColumnsAndTables() {
        Grant grant = RULES.grant("orders-app");
        assertThat(grant.visible(CUSTOMERS).columns())
                .extracting(Column::name)
                .containsExactly("id", "name");
        assertThat(grant.visible(SALARIES)).isNull();
        assertThat(grant.operations()).isFalse();
        assertThat(RULES.grant("ops").operations()).isTrue();
        assertThat(RULES.grant("stranger").mayStream("shop", "customers")).isFalse();
        assertThat(AccessRules.everything().grant("anyone").isEverything()).isTrue();
    }

    @Test
    void shouldReportEveryProblemOfAnAccessFileWithItsPath() {
        assertThatThrownBy(
                        () ->
                                AccessRules.parse(
                                        YamlConfigFile.parse(
                                                """
                                                principals:
                                                  a: {tables: [shop], colums: {}}
                                                  b: {columns: {shop.x: []}, operations: yes-please}
                                                """,
                                                "access")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("principals.a.tables[0]")
                .hasMessageContaining("principals.a.colums")
                .hasMessageContaining("principals.b.columns.shop.x")
                .hasMessageContaining("principals.b.operations");
    }

    private static CapturePlan plan(String include, String where) {
        String yaml =
                "policies:\n  - include: "
                        + include
                        + (where == null ? "" : "\n    where: \"" + where + "\"")
                        + "\n";
        Policies policies =
                PolicyConfig.parse(YamlConfigFile.parse(yaml, "filter").get("policies"));
        return CapturePlan.of(policies, CapturePlan.ALL_PARTITIONS, "partition");
    }
}
