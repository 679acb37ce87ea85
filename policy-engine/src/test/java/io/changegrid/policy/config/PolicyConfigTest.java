package io.changegrid.policy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import io.changegrid.policy.BoundPolicy;
import io.changegrid.policy.Policies;
import io.changegrid.policy.Policy;
import io.changegrid.policy.conflict.ConflictStrategy;
import io.changegrid.policy.partition.Partitioner;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyConfigTest {

    static final String EXAMPLE =
            """
            policies:
              - name: eu-orders
                include: [shop.*, billing.invoice]
                exclude: [shop.tmp_*]
                columns:
                  exclude: [internal_note]
                where: "tenant_id IN (7, 8) AND total >= 10.00 AND email NOT LIKE '%@test.%'"
                transform:
                  database: shop_eu
                  rename: {total: amount}
                  mask:
                    email: {hash: {salt: s3cr3t}}
                    phone: {fixed: '*'}
                  add:
                    src_db: {source: database}
                    region: {constant: eu}
                    change_scn: {source: scn}
                partition:
                  byColumn: {column: tenant_id, partitions: 4, values: {"7": 0}}
                conflict:
                  strategy: SOURCE_PRIORITY
                  sources: [2, 1]
            """;

    static final TableSchema ORDERS =
            new TableSchema(
                    1,
                    1,
                    "shop",
                    "orders",
                    List.of(
                            Column.of("id", ValueType.INT64),
                                    Column.of("tenant_id", ValueType.INT64),
                            Column.of("total", ValueType.DECIMAL),
                                    Column.of("email", ValueType.STRING),
                            Column.of("phone", ValueType.STRING),
                                    Column.of("internal_note", ValueType.STRING)),
                    List.of("id"));

    @Test
    void shouldCompileAndApplyThePolicyWhenTheExampleIsParsed() {
        Policies policies = PolicyConfig.parse(YamlConfigFile.parse(EXAMPLE, "test"));
        Policy policy = policies.policies().get(0);
        assertThat(policy.partitioner()).isInstanceOf(Partitioner.ByColumn.class);
        assertThat(policy.conflict()).isEqualTo(ConflictStrategy.SOURCE_PRIORITY);
        assertThat(policies.selecting("shop", "orders")).containsExactly(policy);
        assertThat(policies.selecting("shop", "tmp_x")).isEmpty();
        assertThat(policies.validate(List.of(ORDERS))).isEmpty();

        BoundPolicy bound = policy.bind(ORDERS);
        Object[] row = {1L, 7L, new BigDecimal("12.00"), "a@b.com", "123", "secret"};
        ChangeEvent out =
                bound.apply(
                        new ChangeEvent(
                                1, 5, 0, 0, "t", Operation.INSERT, ORDERS, null, row, null));
        assertThat(out.schema().qualifiedName()).isEqualTo("shop_eu.orders");
        assertThat(out.schema().columns().stream().map(Column::name))
                .containsExactly(
                        "id",
                        "tenant_id",
                        "amount",
                        "email",
                        "phone",
                        "src_db",
                        "region",
                        "change_scn");
        assertThat(out.after())
                .doesNotContain("a@b.com", "secret", "123")
                .contains("***", "shop", "eu", 5L);
        Object[] test = {1L, 7L, new BigDecimal("12.00"), "x@test.com", "1", null};
        assertThat(
                        bound.apply(
                                new ChangeEvent(
                                        1,
                                        5,
                                        0,
                                        0,
                                        "t",
                                        Operation.INSERT,
                                        ORDERS,
                                        null,
                                        test,
                                        null)))
                .isNull();
        Object[] deleted = {1L, 9L, new BigDecimal("12.00"), "a@b.com", "1", null};
        assertThat(
                        bound.apply(
                                new ChangeEvent(
                                        1,
                                        5,
                                        0,
                                        0,
                                        "t",
                                        Operation.DELETE,
                                        ORDERS,
                                        deleted,
                                        null,
                                        null)))
                .isNull();
    }

    @Test
    void shouldReportEveryProblemWithItsPathWhenPoliciesAreInvalid() {
        String yaml =
                """
                policies:
                  - include: [shop.orders]
                    where: "tenant_id IN (1, )"
                  - include: [shoporders]
                    wher: x
                    transform:
                      mask: {email: {fixed: '**'}}
                      add: {x: {source: gtid}}
                    partition: {byKeyHash: {partitions: 0}}
                    conflict: {strategy: NEWEST}
                  - where: a = 1
                """;
        ConfigException e =
                catchThrowableOfType(
                        ConfigException.class,
                        () -> PolicyConfig.parse(YamlConfigFile.parse(yaml, "test")));
        assertThat(e.problems())
                .containsExactly(
                        "policies[0].where: expected a value after \",\" found \")\" at offset 17: text=tenant_id IN (1, )",
                        "policies[1].wher: unknown key, expected one of [columns, conflict, exclude, include, name, partition, transform, where]",
                        "policies[1].include[0]: expected a database.table pattern: value=shoporders",
                        "policies[1].transform.mask.email.fixed: expected one character: value=**",
                        "policies[1].transform.add.x.source: unknown source, expected one of [commitTime, database, databaseHash, scn, sourceId]: value=gtid",
                        "policies[1].partition.byKeyHash: partitions must be >= 1: value=0",
                        "policies[1].conflict.strategy: unknown strategy: value=NEWEST",
                        "policies[2].include: missing");
    }

    @Test
    void shouldNameTheLimitAndPathWhenAPredicateNestsTooDeep() {
        String yaml =
                "policies:\n  - include: [shop.orders]\n    where: \""
                        + "(".repeat(33)
                        + "a = 1"
                        + ")".repeat(33)
                        + "\"\n";
        ConfigException e =
                catchThrowableOfType(
                        ConfigException.class,
                        () -> PolicyConfig.parse(YamlConfigFile.parse(yaml, "test")));
        assertThat(e.problems()).hasSize(1);
        assertThat(e.problems().get(0))
                .startsWith(
                        "policies[0].where: predicate nested deeper than the limit: maxDepth=32");
    }

    @Test
    void shouldNameUnknownColumnsWhenValidatedAgainstSchemas() {
        String yaml =
                """
                policies:
                  - include: [shop.*]
                    where: tenant_idd = 1
                    columns: {include: [id, nope]}
                    partition: {byRange: {column: amount, bounds: [10, 20]}}
                  - include: [other.*]
                """;
        Policies policies = PolicyConfig.parse(YamlConfigFile.parse(yaml, "test"));
        assertThat(policies.validate(List.of(ORDERS)))
                .containsExactly(
                        "policies[0].where: unknown column: table=shop.orders, value=tenant_idd",
                        "policies[0]: unknown column: table=shop.orders, key=columns.include, value=nope",
                        "policies[0].partition: unknown column: table=shop.orders, value=amount",
                        "policies[1].include: selects no known table: value=[other.*]");
        assertThatThrownBy(() -> policies.policies().get(0).bind(ORDERS))
                .isInstanceOf(ConfigException.class);
    }
}
