package io.changegrid.gridkit.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TransactionGeneratorTest {

    private static final Pattern DELETED = Pattern.compile("WHERE id IN \\(([0-9,]+)\\)");

    private final WorkloadTables tables =
            WorkloadTables.of("bench", List.of("orders", "customers", "payments"));

    @Test
    void shouldFollowTheMixWhenManyTransactionsAreGenerated() {
        TransactionGenerator generator =
                new TransactionGenerator(tables, shape(new OperationMix(70, 20, 10)));
        long inserts = 0;
        long updates = 0;
        long deletes = 0;
        for (int i = 0; i < 300; i++) {
            GeneratedTransaction transaction = generator.next(100);
            assertThat(transaction.rowChanges()).isEqualTo(100);
            inserts += transaction.inserts();
            updates += transaction.updates();
            deletes += transaction.deletes();
        }
        // Early transactions have few live rows to change, so inserts run a little above 70 %.
        assertThat(inserts / 30_000.0).isBetween(0.68, 0.75);
        assertThat(updates / 30_000.0).isBetween(0.17, 0.21);
        assertThat(deletes / 30_000.0).isBetween(0.08, 0.11);
    }

    @Test
    void shouldOnlyInsertWhenTheMixHasNoChanges() {
        TransactionGenerator generator =
                new TransactionGenerator(tables, shape(new OperationMix(100, 0, 0)));

        GeneratedTransaction transaction = generator.next(50);

        assertThat(transaction.inserts()).isEqualTo(50);
        assertThat(transaction.statements()).hasSize(1);
        assertThat(transaction.statements().get(0)).startsWith("INSERT INTO `bench`.`orders`");
    }

    @Test
    void shouldNeverDeleteARowTwiceWhenDeletesAreFrequent() {
        TransactionGenerator generator =
                new TransactionGenerator(tables, shape(new OperationMix(50, 0, 50)));
        Set<String> deleted = new HashSet<>();
        for (int i = 0; i < 600; i++) {
            GeneratedTransaction transaction = generator.next(20);
            String table = "t" + i % 3;
            for (String sql : transaction.statements()) {
                Matcher ids = DELETED.matcher(sql);
                if (ids.find()) {
                    for (String id : ids.group(1).split(",")) {
                        assertThat(deleted.add(table + ":" + id))
                                .as("deleted once: %s", id)
                                .isTrue();
                    }
                }
            }
        }
        assertThat(deleted).isNotEmpty();
    }

    @Test
    void shouldWriteOnlyStatementsWithoutQuotesInValuesWhenTextIsGenerated() {
        TransactionGenerator generator =
                new TransactionGenerator(tables, shape(OperationMix.DEFAULT));
        for (int i = 0; i < 50; i++) {
            for (String sql : generator.next(100).statements()) {
                assertThat(sql).doesNotContain("\\").doesNotContain("''");
                assertThat(sql.chars().filter(c -> c == '\'').count() % 2).isZero();
            }
        }
    }

    @Test
    void shouldProduceRowsOfAboutTheRecordSizeWhenInserting() {
        TransactionGenerator generator =
                new TransactionGenerator(tables, shape(new OperationMix(100, 0, 0)));
        List<String> statements = generator.next(1000).statements();

        // SQL text of a row: its values plus quotes, commas and the NOW(6) call.
        double charsPerRow = (statements.get(0).length() - 150) / 1000.0;
        assertThat(charsPerRow).isBetween(1_050.0, 1_200.0);
    }

    @Test
    void shouldChangeExistingRowsAndInsertAboveThemWhenTheTablesHoldRows() {
        WorkloadTables one = WorkloadTables.of("bench", List.of("orders"));
        TransactionGenerator deleting =
                new TransactionGenerator(
                        one,
                        new LoadShape(1_000, 1_100, 1, new OperationMix(1, 0, 99), 3, 7),
                        new long[][] {{3, 5, 9}});
        Set<String> deleted = new HashSet<>();
        Matcher ids = DELETED.matcher(String.join(" ", deleting.next(3).statements()));
        while (ids.find()) {
            deleted.addAll(List.of(ids.group(1).split(",")));
        }
        assertThat(deleted).isNotEmpty().isSubsetOf("3", "5", "9");

        TransactionGenerator inserting =
                new TransactionGenerator(
                        tables,
                        shape(new OperationMix(100, 0, 0)),
                        new long[][] {{3, 5, 9}, {}, null});
        assertThat(inserting.next(1).statements().get(0)).contains("VALUES (10,");
        assertThat(inserting.next(1).statements().get(0)).contains("VALUES (1,");
        assertThat(inserting.next(1).statements().get(0)).contains("VALUES (1,");
    }

    private static LoadShape shape(OperationMix mix) {
        return new LoadShape(1_000_000, 1_100, 3, mix, 100, 7);
    }
}
