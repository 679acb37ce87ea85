package io.changegrid.policy.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.frame.KeyHash;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PartitionerTest {

    static final TableSchema T =
            new TableSchema(
                    5,
                    1,
                    "shop",
                    "orders",
                    List.of(
                            Column.of("id", ValueType.INT64),
                            Column.of("tenant", ValueType.STRING),
                            Column.of("amount", ValueType.DECIMAL)),
                    List.of("id"));
    static final TableSchema KEYLESS =
            new TableSchema(
                    6, 1, "shop", "log", List.of(Column.of("line", ValueType.STRING)), List.of());

    static ChangeEvent insert(TableSchema schema, Object... after) {
        return new ChangeEvent(1, 10L, 0, 0L, "t", Operation.INSERT, schema, null, after, null);
    }

    @Test
    void shouldAgreeWithTheFrameHeaderWhenPartitioningByKeyHash() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Partitioner.ByKeyHash byKey = new Partitioner.ByKeyHash(7);
        FrameEncoder encoder = new FrameEncoder(1 << 16);
        encoder.beginTransaction(1, 10L, 0L, "t");
        EventFrame frame = new EventFrame();
        for (int i = 0; i < 200; i++) {
            ChangeEvent event =
                    insert(
                            T,
                            random.nextLong(),
                            "t" + random.nextInt(),
                            new BigDecimal(random.nextInt()).movePointLeft(2));
            int at = encoder.appendRowChange(Operation.INSERT, T, null, event.after());
            frame.wrap(encoder.buffer().byteBuffer(), at);
            assertThat(byKey.partitionOf(event))
                    .as("seed=%d", seed)
                    .isEqualTo(byKey.partitionOf(frame))
                    .isEqualTo(KeyHash.partition(frame.partitionHash(), 7));
        }
        assertThat(byKey.partitionOf(insert(KEYLESS, "x")))
                .isEqualTo(KeyHash.partition(KeyHash.ofTableId(6), 7));
    }

    @Test
    void shouldKeepATableInOnePartitionWhenPartitioningByTable() {
        Partitioner.ByTable byTable = new Partitioner.ByTable(4);
        int p = byTable.partitionOf(insert(T, 1L, "a", BigDecimal.ONE));
        assertThat(byTable.partitionOf(insert(T, 2L, "b", BigDecimal.TEN))).isEqualTo(p);
        assertThat(byTable.partitionOfTable("shop", "orders")).isEqualTo(p).isBetween(0, 3);
    }

    @Test
    void shouldUseListedValuesThenHashWhenPartitioningByColumn() {
        Partitioner.ByColumn byColumn = new Partitioner.ByColumn("tenant", 3, Map.of("acme", 2));
        assertThat(byColumn.partitionOf(insert(T, 1L, "acme", null))).isEqualTo(2);
        assertThat(byColumn.partitionOf(insert(T, 1L, null, null))).isZero();
        int other = byColumn.partitionOf(insert(T, 1L, "globex", null));
        assertThat(byColumn.partitionOf(insert(T, 99L, "globex", null)))
                .isEqualTo(other)
                .isBetween(0, 2);
        Partitioner.ByColumn byAmount = new Partitioner.ByColumn("amount", 3, Map.of("1.50", 1));
        assertThat(byAmount.partitionOf(insert(T, 1L, "x", new BigDecimal("1.50")))).isEqualTo(1);
        assertThat(byColumn.partitionOf(insert(KEYLESS, "x"))).isZero();
        assertThatThrownBy(() -> new Partitioner.ByColumn("tenant", 2, Map.of("a", 2)))
                .hasMessage("partition out of range: value=a, partition=2, partitions=2");
    }

    @Test
    void shouldPlaceValuesBetweenBoundsWhenPartitioningByRange() {
        Partitioner.ByRange byRange =
                new Partitioner.ByRange(
                        "id", List.of(new BigDecimal("100"), new BigDecimal("1000")));
        assertThat(byRange.partitions()).isEqualTo(3);
        assertThat(byRange.partitionOf(insert(T, -5L, "a", null))).isZero();
        assertThat(byRange.partitionOf(insert(T, 100L, "a", null))).isEqualTo(1);
        assertThat(byRange.partitionOf(insert(T, 999L, "a", null))).isEqualTo(1);
        assertThat(byRange.partitionOf(insert(T, 1000L, "a", null))).isEqualTo(2);
        Partitioner.ByRange byName = new Partitioner.ByRange("tenant", List.of("m"));
        assertThat(byName.partitionOf(insert(T, 1L, "alpha", null))).isZero();
        assertThat(byName.partitionOf(insert(T, 1L, "zulu", null))).isEqualTo(1);
        assertThatThrownBy(
                        () ->
                                new Partitioner.ByRange(
                                        "id", List.of(BigDecimal.TEN, BigDecimal.ONE)))
                .hasMessageStartingWith("range bounds must ascend and be of one kind: column=id");
    }

    @Test
    void shouldPartitionTextGivenAsUtf8BytesAsTheTextWhenPartitioningByColumnOrRange() {
        // The binlog fetcher hands utf8mb4 text over undecoded; partitions must not change.
        byte[] tenant = "Zoë 😀".getBytes(StandardCharsets.UTF_8);
        Partitioner.ByColumn byColumn = new Partitioner.ByColumn("tenant", 7, Map.of());
        assertThat(byColumn.partitionOf(insert(T, 1L, tenant, null)))
                .isEqualTo(byColumn.partitionOf(insert(T, 1L, "Zoë 😀", null)));
        Partitioner.ByColumn listed = new Partitioner.ByColumn("tenant", 3, Map.of("Zoë 😀", 2));
        assertThat(listed.partitionOf(insert(T, 1L, tenant, null))).isEqualTo(2);
        Partitioner.ByRange byName = new Partitioner.ByRange("tenant", List.of("m"));
        assertThat(byName.partitionOf(insert(T, 1L, "zulu".getBytes(StandardCharsets.UTF_8), null)))
                .isEqualTo(1);
    }

    @Test
    void shouldDescribeKindAndParametersAlikeWhenPartitionersAreConfiguredAlike() {
        assertThat(new Partitioner.ByTable(4).canonicalForm()).isEqualTo("byTable(partitions=4)");
        assertThat(new Partitioner.ByKeyHash(4).canonicalForm())
                .isEqualTo("byKeyHash(partitions=4)");
        Map<String, Integer> listed = new LinkedHashMap<>();
        listed.put("7", 0);
        listed.put("3", 1);
        assertThat(new Partitioner.ByColumn("tenant", 4, listed).canonicalForm())
                .isEqualTo("byColumn(column=\"tenant\",partitions=4,values={\"3\":1,\"7\":0})")
                .isEqualTo(
                        new Partitioner.ByColumn("tenant", 4, Map.of("3", 1, "7", 0))
                                .canonicalForm());
        assertThat(
                        new Partitioner.ByRange(
                                        "amount",
                                        List.of(new BigDecimal("100.00"), new BigDecimal("2.5E+2")))
                                .canonicalForm())
                .as("bounds compare by value")
                .isEqualTo("byRange(column=\"amount\",bounds=[100,250])");
        assertThat(new Partitioner.ByRange("tenant", List.of("a\"b", "m")).canonicalForm())
                .isEqualTo("byRange(column=\"tenant\",bounds=[\"a\\\"b\",\"m\"])");
    }

    @Test
    void shouldDescribeDifferentlyWhenPartitionersSplitDifferently() {
        assertThat(
                        List.of(
                                        new Partitioner.ByTable(4),
                                        new Partitioner.ByKeyHash(4),
                                        new Partitioner.ByKeyHash(8),
                                        new Partitioner.ByColumn("tenant", 4, Map.of()),
                                        new Partitioner.ByColumn("region", 4, Map.of()),
                                        new Partitioner.ByColumn("tenant", 4, Map.of("3", 1)),
                                        new Partitioner.ByRange("id", List.of(BigDecimal.TEN)),
                                        new Partitioner.ByRange("id", List.of("10")))
                                .stream()
                                .map(Partitioner::canonicalForm)
                                .distinct())
                .as("text bound \"10\" is not numeric bound 10")
                .hasSize(8);
    }
}
