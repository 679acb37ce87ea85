package io.changegrid.policy.capture;

import static io.changegrid.policy.capture.CapturePlanTest.policies;
import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.ChangeEventDecoder;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The routing every fetcher shares: what is captured, how rows are routed and encoded. */
class CaptureRouterTest {

    private static final String MASK_TENANTS =
            """
            policies:
              - include: [shop.users]
                where: tenant_id IN (3, 7)
                transform: {mask: {ssn: {fixed: '#'}}}
            """;

    private final SchemaRegistry source = new SchemaRegistry();
    private final TableSchema users =
            source.register(
                    "shop",
                    "users",
                    List.of(
                            Column.of("id", ValueType.INT64),
                            Column.of("tenant_id", ValueType.INT64),
                            Column.of("ssn", ValueType.STRING)),
                    List.of("id"));

    private CaptureRouter router(String yaml, List<String> excludes) {
        CapturePlan plan =
                yaml == null
                        ? CapturePlan.everything()
                        : CapturePlan.of(policies(yaml), CapturePlan.ALL_PARTITIONS, "p");
        return new CaptureRouter(TableFilter.of(List.of(), excludes), plan, source);
    }

    private static List<ChangeEvent> decode(TransactionWriter writer, SchemaRegistry registry) {
        ChangeEventDecoder decoder = new ChangeEventDecoder(registry);
        EventFrame frame = new EventFrame();
        List<ChangeEvent> events = new ArrayList<>();
        for (int at = 0; at < writer.length(); at += frame.length()) {
            frame.wrap(writer.frames(), at);
            events.add(decoder.decode(frame));
        }
        return events;
    }

    @Test
    void shouldCaptureOnlyWhatTheFilterAndSomePolicyTakeWhenAsked() {
        assertThat(router(null, List.of()).captures("shop", "users")).isTrue();
        assertThat(router(null, List.of("shop.users")).captures("shop", "users")).isFalse();
        assertThat(router(null, List.of()).captures("mysql", "user")).isFalse();
        assertThat(router(MASK_TENANTS, List.of()).captures("shop", "orders")).isFalse();
        assertThat(router(MASK_TENANTS, List.of()).captures("shop", "users")).isTrue();
    }

    @Test
    void shouldPublishTheSourceSchemasThemselvesWhenThereAreNoPolicies() {
        CaptureRouter router = router(null, List.of());

        assertThat(router.published()).isSameAs(source);
        assertThat(router.route(users).output()).isSameAs(users);
    }

    @Test
    void shouldRegisterARoutesOutputSchemaBeforeReturningItWhenPoliciesTransform() {
        CaptureRouter router = router(MASK_TENANTS, List.of());

        TableRoute route = router.route(users);

        assertThat(router.route(users)).isSameAs(route);
        assertThat(router.published()).isNotSameAs(source);
        assertThat(router.published().schema(users.tableId(), users.version()))
                .isEqualTo(route.output());
    }

    @Test
    void shouldEncodeOnlyTheRowsThePolicyLetsThroughTransformedWhenWriting() {
        CaptureRouter router = router(MASK_TENANTS, List.of());
        TableRoute route = router.route(users);
        TransactionWriter writer = new TransactionWriter(4, 1024);

        writer.open(100, 5_000, "0-1-9");
        assertThat(writer.appendRow(route, Operation.INSERT, null, new Object[] {1L, 2L, "x"}))
                .isFalse();
        assertThat(writer.hasEvents()).isFalse();
        assertThat(writer.appendRow(route, Operation.INSERT, null, new Object[] {2L, 3L, "123"}))
                .isTrue();
        writer.end();

        assertThat(writer.events()).isEqualTo(1);
        assertThat(writer.scn()).isEqualTo(100);
        assertThat(writer.commitTimeMicros()).isEqualTo(5_000);
        List<ChangeEvent> events = decode(writer, router.published());
        assertThat(events).hasSize(2);
        assertThat(events.get(0).after()).containsExactly(2L, 3L, "###");
        assertThat(events.get(0).sourceId()).isEqualTo(4);
        assertThat(events.get(1).operation()).isEqualTo(Operation.END_OF_TRANSACTION);
    }

    @Test
    void shouldBeginAfreshWhenATransactionWasAbandonedHalfWritten() {
        TableRoute route = router(null, List.of()).route(users);
        TransactionWriter writer = new TransactionWriter(4, 1024);
        writer.open(100, 5_000, "0-1-9");
        writer.appendRow(route, Operation.INSERT, null, new Object[] {1L, 2L, "x"});

        writer.abandon();
        writer.open(100, 5_000, "0-1-9");
        writer.appendRow(route, Operation.INSERT, null, new Object[] {1L, 2L, "y"});
        writer.end();

        List<ChangeEvent> events = decode(writer, source);
        assertThat(events).hasSize(2);
        assertThat(events.get(0).after()).containsExactly(1L, 2L, "y");
    }

    @Test
    void shouldReplaceWhatWasEncodedWithOneFrameWhenWritingAHeartbeat() {
        TransactionWriter writer = new TransactionWriter(4, 1024);
        writer.open(100, 5_000, "0-1-9");
        writer.appendRow(
                router(null, List.of()).route(users),
                Operation.INSERT,
                null,
                new Object[] {1L, 2L, "x"});

        writer.heartbeat(199, 7_000);

        assertThat(writer.events()).isZero();
        assertThat(writer.hasEvents()).isFalse();
        List<ChangeEvent> events = decode(writer, source);
        assertThat(events).hasSize(1);
        assertThat(events.get(0).operation()).isEqualTo(Operation.HEARTBEAT);
        assertThat(events.get(0).scn()).isEqualTo(199);
        assertThat(events.get(0).commitTimeMicros()).isEqualTo(7_000);
    }
}
