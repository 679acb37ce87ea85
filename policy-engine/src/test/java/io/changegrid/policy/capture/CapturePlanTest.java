package io.changegrid.policy.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.changegrid.config.ConfigException;
import io.changegrid.config.YamlConfigFile;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.KeyHash;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import io.changegrid.policy.Policies;
import io.changegrid.policy.config.PolicyConfig;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class CapturePlanTest {

    static final TableSchema ORDERS =
            table(1, 1, "shop", "orders", "id", "tenant_id", "email", "total");
    static final TableSchema USERS = table(2, 1, "shop", "users", "id", "name", "ssn");
    static final TableSchema AUDIT = table(3, 1, "ops", "audit", "id", "what");

    static TableSchema table(int id, int version, String db, String name, String... columns) {
        List<Column> list = new ArrayList<>();
        for (String column : columns) {
            list.add(
                    Column.of(
                            column,
                            column.equals("total")
                                    ? ValueType.DECIMAL
                                    : column.endsWith("id") ? ValueType.INT64 : ValueType.STRING));
        }
        return new TableSchema(id, version, db, name, list, List.of("id"));
    }

    static Policies policies(String yaml) {
        return PolicyConfig.parse(YamlConfigFile.parse(yaml, "test"));
    }

    static final String SPLIT =
            """
            policies:
              - include: [shop.users]
                transform: {mask: {ssn: {fixed: '#'}}}
                partition: {%1$s: {partitions: 2}}
              - include: [shop.*]
                where: tenant_id IN (3, 7)
                partition: {%1$s: {partitions: 2}}
            """;

    @Test
    void shouldPublishEveryRowUnchangedWhenThereAreNoPolicies() {
        CapturePlan plan = CapturePlan.everything();
        TableRoute route = plan.route(ORDERS);
        assertThat(plan.selects("any", "table")).isTrue();
        assertThat(route.passesEverything()).isTrue();
        assertThat(route.output()).isSameAs(ORDERS);
        Object[] row = {1L, 3L, "a@b", BigDecimal.ONE};
        assertThat(route.transform(row, false, 1, 2, 3)).isSameAs(row);
    }

    @Test
    void shouldRouteATableByTheFirstPolicySelectingItWhenPoliciesOverlap() {
        CapturePlan plan =
                CapturePlan.of(
                        policies(SPLIT.formatted("byKeyHash")), CapturePlan.ALL_PARTITIONS, "p");

        TableRoute users = plan.route(USERS);
        Object[] masked = users.transform(new Object[] {1L, "Zoë", "123-45-6789"}, false, 1, 10, 0);
        assertThat(masked).containsExactly(1L, "Zoë", "###########");
        assertThat(users.selects(Operation.INSERT, null, masked)).isTrue(); // no where: for users

        TableRoute orders = plan.route(ORDERS);
        assertThat(orders.output()).isEqualTo(ORDERS);
        assertThat(orders.selects(Operation.INSERT, null, new Object[] {1L, 7L, "x", null}))
                .isTrue();
        assertThat(orders.selects(Operation.INSERT, null, new Object[] {1L, 8L, "x", null}))
                .isFalse();
        assertThat(orders.selects(Operation.INSERT, null, new Object[] {1L, null, "x", null}))
                .as("NULL IN (3, 7) is unknown: not selected")
                .isFalse();
        assertThat(orders.selects(Operation.DELETE, new Object[] {1L, 3L, "x", null}, null))
                .as("a delete is judged on its before image")
                .isTrue();

        assertThat(plan.selects("ops", "audit")).isFalse();
        assertThat(plan.route(AUDIT)).isNull();
    }

    @Test
    void shouldGiveEveryTableToExactlyOneRelayWhenRelaysSplitByTable() {
        Policies policies = policies(SPLIT.formatted("byTable"));
        CapturePlan relay0 = CapturePlan.of(policies, 0, "capture.partition");
        CapturePlan relay1 = CapturePlan.of(policies, 1, "capture.partition");
        assertThat(relay1.partitions()).as("what relays register: 1 of 2").isEqualTo(2);
        assertThat(CapturePlan.of(policies, -1, "capture.partition").partitions()).isZero();
        assertThat(CapturePlan.everything().partitions()).isZero();
        for (TableSchema table : List.of(ORDERS, USERS)) {
            TableRoute first = relay0.route(table);
            TableRoute second = relay1.route(table);
            assertThat(first == null ^ second == null)
                    .as("exactly one relay publishes %s", table.qualifiedName())
                    .isTrue();
            TableRoute taken = first != null ? first : second;
            assertThat(taken.needsRowImages())
                    .isEqualTo(table == ORDERS); // the where: of shop.* reads rows
        }
    }

    @Test
    void shouldAgreeWithTheFrameHeaderWhenRelaysSplitByKeyHash() {
        Policies policies = policies(SPLIT.formatted("byKeyHash"));
        List<TableRoute> relays =
                List.of(
                        CapturePlan.of(policies, 0, "capture.partition").route(USERS),
                        CapturePlan.of(policies, 1, "capture.partition").route(USERS));
        FrameEncoder encoder = new FrameEncoder(1024);
        EventFrame frame = new EventFrame();
        for (long id = 0; id < 500; id++) {
            Object[] source = {id, "name-" + id, "ssn-" + id};
            int owners = 0;
            for (int p = 0; p < 2; p++) {
                TableRoute route = relays.get(p);
                Object[] out = route.transform(source, false, 1, 5, 0);
                if (!route.inPartition(null, out)) {
                    continue;
                }
                owners++;
                encoder.buffer().clear();
                encoder.beginTransaction(1, 5, 0, "t");
                int at = encoder.appendRowChange(Operation.INSERT, route.output(), null, out);
                frame.wrap(encoder.buffer().byteBuffer(), at);
                assertThat(KeyHash.partition(frame.partitionHash(), 2)).isEqualTo(p);
                assertThat(route.inPartition(frame)).isTrue();
                encoder.abortTransaction(0);
            }
            assertThat(owners).as("row %s in exactly one partition", id).isEqualTo(1);
        }
    }

    @Test
    void shouldNameEveryPolicyThatCannotBeSplitWhenARelayTakesOnePartition() {
        String yaml =
                """
                policies:
                  - include: [shop.users]
                    partition: {byKeyHash: {partitions: 2}}
                  - include: [shop.orders]
                  - include: [ops.*]
                    partition: {byTable: {partitions: 3}}
                """;
        ConfigException e =
                catchThrowableOfType(
                        ConfigException.class,
                        () -> CapturePlan.of(policies(yaml), 2, "capture.partition"));
        assertThat(e.problems())
                .containsExactly(
                        "policies[0].partition: capture.partition out of range: value=2, partitions=2",
                        "policies[1].partition: missing: capture.partition=2 takes one partition of"
                                + " every policy, so every policy needs a partitioner; without one its"
                                + " rows would be in every partition",
                        "policies[2].partition: every policy must split into the same number of"
                                + " partitions when one partition is taken: value=3, first=2");
    }

    @Test
    void shouldKeepAColumnMaskedAndDroppedWhenTheSourceAltersTheTable() {
        CapturePlan plan =
                CapturePlan.of(
                        policies(
                                """
                                policies:
                                  - include: [shop.users]
                                    transform:
                                      mask: {name: {truncate: 1}}
                                      drop: [ssn]
                                """),
                        CapturePlan.ALL_PARTITIONS,
                        "p");
        TableSchema added = table(2, 2, "shop", "users", "id", "name", "ssn", "email");
        TableRoute route = plan.routeChanged(USERS, added);
        assertThat(route.output().columns().stream().map(Column::name))
                .containsExactly("id", "name", "email");
        assertThat(route.transform(new Object[] {1L, "Zoë", "secret", "z@x"}, false, 1, 1, 0))
                .containsExactly(1L, "Z", "z@x");

        TableSchema ssnDropped = table(2, 3, "shop", "users", "id", "name", "email");
        assertThat(plan.routeChanged(added, ssnDropped).output().columnCount())
                .as("dropping a protected column at the source is harmless")
                .isEqualTo(3);

        TableSchema ssnBack = table(2, 4, "shop", "users", "id", "name", "email", "ssn");
        assertThat(plan.routeChanged(ssnDropped, ssnBack).output().indexOf("ssn"))
                .as("a dropped-by-policy column never reappears")
                .isLessThan(0);
    }

    @Test
    void shouldStopWhenAProtectedColumnMayHaveBeenRenamed() {
        CapturePlan plan =
                CapturePlan.of(
                        policies(
                                """
                                policies:
                                  - include: [shop.users]
                                    transform: {mask: {ssn: {hash: {salt: s}}}}
                                """),
                        CapturePlan.ALL_PARTITIONS,
                        "p");
        TableSchema renamed = table(2, 2, "shop", "users", "id", "name", "social");
        assertThatThrownBy(() -> plan.routeChanged(USERS, renamed))
                .isInstanceOf(PolicyViolationException.class)
                .hasMessageContaining("policy=policies[0]")
                .hasMessageContaining("table=shop.users")
                .hasMessageContaining("column=ssn")
                .hasMessageContaining("newColumns=[social]");
    }

    @Test
    void shouldStopWhenThePredicateColumnIsDropped() {
        CapturePlan plan =
                CapturePlan.of(
                        policies(SPLIT.formatted("byKeyHash")), CapturePlan.ALL_PARTITIONS, "p");
        TableSchema dropped = table(1, 2, "shop", "orders", "id", "email", "total");
        assertThatThrownBy(() -> plan.routeChanged(ORDERS, dropped))
                .isInstanceOf(PolicyViolationException.class)
                .hasMessageContaining("table=shop.orders")
                .hasMessageContaining("policies[1].where: unknown column")
                .hasMessageContaining("tenant_id");
    }

    @Test
    void shouldMaskAlikeOnEveryThreadWhenHashingWithASalt() throws Exception {
        CapturePlan plan =
                CapturePlan.of(
                        policies(
                                """
                                policies:
                                  - include: [shop.users]
                                    transform: {mask: {ssn: {hash: {salt: pepper}}}}
                                """),
                        CapturePlan.ALL_PARTITIONS,
                        "p");
        TableRoute route = plan.route(USERS);
        Object[] row = {1L, "n", "123"};
        Object[] here = route.transform(row, false, 1, 1, 0);
        Object[] there =
                CompletableFuture.supplyAsync(() -> route.transform(row, false, 1, 1, 0)).get();
        assertThat(Arrays.asList(there)).isEqualTo(Arrays.asList(here));
        assertThat((String) here[2]).hasSize(64).doesNotContain("123");
    }
}
