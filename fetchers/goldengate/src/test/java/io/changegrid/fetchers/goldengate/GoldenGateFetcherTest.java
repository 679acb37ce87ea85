package io.changegrid.fetchers.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.value.SqlDateTime;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GoldenGate fetcher over fixture files in the shapes of Oracle's JSON formatter documentation:
 * inserts, updates with both images, primary-key updates, deletes, truncates, nulls against missing
 * columns, unicode and escaping; and the bad input it must stop at.
 */
class GoldenGateFetcherTest {

    static final List<String> ORDERS =
            List.of(
                    "SHOP.ORDERS(ID NUMBER(10) key, STATUS VARCHAR2(20), NOTE VARCHAR2(200),"
                            + " AMOUNT NUMBER(12,2), CREATED DATE)");

    @TempDir Path dir;

    static List<String> fixture() throws Exception {
        try (InputStream in =
                GoldenGateFetcherTest.class.getResourceAsStream("/fixtures/operations.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private void writeFile(String name, List<String> lines) throws Exception {
        Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    @Test
    void shouldPublishEveryDocumentedOperationShapeWhenTheFileIsFinalized() throws Exception {
        writeFile("ggjson_1.json", fixture());
        try (RunningFetcher running =
                RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), null)) {
            running.sink.awaitTransaction(
                    t -> t.rowEvents().stream().anyMatch(e -> e.key()[0].equals(44L)));
            var transactions = running.sink.transactions();
            assertThat(transactions).hasSize(5);
            assertThat(transactions.get(0).scn()).isEqualTo(3L << 32 | 1416);
            ChangeEvent first = transactions.get(0).rowEvents().get(0);
            assertThat(first.transactionId()).isEqualTo("918273:7.12.345");
            assertThat(first.commitTimeMicros()).isEqualTo(1_795_687_200_000_000L);
            assertThat(first.after())
                    .containsExactly(
                            42L,
                            "NEW",
                            null,
                            new BigDecimal("12.50"),
                            SqlDateTime.parse("2026-11-26 09:59:58"));
            ChangeEvent unicode = transactions.get(0).rowEvents().get(1);
            assertThat(unicode.after()[2]).isEqualTo("café \"quoted\" \\ back\nline \t ☃ 𝄞 ü");
            assertThat(unicode.after()[3]).isEqualTo(new BigDecimal("0.001"));

            ChangeEvent update = transactions.get(1).rowEvents().get(0);
            assertThat(update.operation()).isEqualTo(Operation.UPDATE);
            assertThat(update.before()[1]).isEqualTo("NEW");
            assertThat(update.after()[1]).isEqualTo("PAID");
            assertThat(update.after()[2])
                    .as("a missing after column keeps its before value")
                    .isNull();

            ChangeEvent keyUpdate = transactions.get(2).rowEvents().get(0);
            assertThat(keyUpdate.before()[0]).isEqualTo(42L);
            assertThat(keyUpdate.after()[0]).isEqualTo(43L);

            ChangeEvent delete = transactions.get(3).rowEvents().get(0);
            assertThat(delete.operation()).isEqualTo(Operation.DELETE);
            assertThat(delete.before()[2]).isEqualTo("café \"quoted\" \\ back\nline \t ☃ 𝄞 ü");
            assertThat(transactions.get(3).scn()).isEqualTo(4L << 32 | 1416);

            ChangeEvent last = transactions.get(4).rowEvents().get(0);
            assertThat(last.after()).containsExactly(44L, "NEW", "", new BigDecimal("-3"), null);
            assertThat(transactions.get(4).resumePosition())
                    .isEqualTo(
                            "00000000040000002000@00000000030000001416+"
                                    + Files.size(dir.resolve("ggjson_1.json")));
        }
    }

    @Test
    void shouldKeepTheLastTransactionOpenWhileItsFileIsStillBeingWritten() throws Exception {
        List<String> lines = fixture();
        writeFile("ggjson_1.json.tmp", lines);
        try (RunningFetcher running =
                RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), null)) {
            running.sink.awaitTransaction(t -> t.scn() == (4L << 32 | 1416));
            Thread.sleep(200); // the fetcher polls every 2ms: give it time to do the wrong thing
            assertThat(running.sink.transactions()).hasSize(4);
            Files.move(dir.resolve("ggjson_1.json.tmp"), dir.resolve("ggjson_1.json"));
            running.sink.awaitTransaction(t -> t.scn() == (4L << 32 | 2000));
        }
    }

    @Test
    void shouldNotReadAPartialLastLineUntilItIsComplete() throws Exception {
        List<String> lines = fixture();
        Path file = dir.resolve("ggjson_1.json.tmp");
        String complete = String.join("\n", lines.subList(0, 3)) + "\n";
        String next = lines.get(3);
        Files.writeString(file, complete + next.substring(0, 40));
        try (RunningFetcher running =
                RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), null)) {
            running.sink.awaitTransaction(t -> t.scn() == (3L << 32 | 1416));
            Thread.sleep(100);
            assertThat(running.failure()).isNull();
            Files.writeString(
                    file,
                    next.substring(40) + "\n" + lines.get(4) + "\n",
                    StandardOpenOption.APPEND);
            running.sink.awaitTransaction(t -> t.scn() == (3L << 32 | 2400));
            assertThat(running.failure()).isNull();
        }
    }

    @Test
    void shouldUseTheTransactionIndicatorWhenConfigured() throws Exception {
        List<String> lines = fixture().subList(0, 3);
        List<String> marked =
                List.of(
                        lines.get(0).replace("\"tokens\"", "\"txind\":\"0\",\"tokens\""),
                        lines.get(1).replace("\"tokens\"", "\"txind\":\"2\",\"tokens\""),
                        lines.get(2).replace("\"tokens\"", "\"txind\":\"3\",\"tokens\""));
        writeFile("ggjson_1.json.tmp", marked);
        try (RunningFetcher running =
                RunningFetcher.start(RunningFetcher.config(dir, ORDERS, "txind"), null)) {
            // Both transactions end by their marker, in a file still being written.
            running.sink.awaitTransaction(t -> t.scn() == (3L << 32 | 2048));
            assertThat(running.sink.transactions().get(0).rowEvents()).hasSize(2);
        }
    }

    @Test
    void shouldTakeColumnsFromGoldenGatesSchemaFileWhenPresent() throws Exception {
        Path schemas = Files.createDirectories(dir.resolve("dirdef"));
        Path trail = Files.createDirectories(dir.resolve("out"));
        Files.writeString(
                schemas.resolve("SHOP.ORDERS.schema.json"),
                """
                {"$schema":"http://json-schema.org/draft-04/schema#","title":"SHOP.ORDERS",
                 "description":"JSON schema for table SHOP.ORDERS",
                 "definitions":{"row":{"type":"object","properties":{
                   "ID":{"type":["integer","null"]},"STATUS":{"type":["string","null"]},
                   "NOTE":{"type":["string","null"]},"AMOUNT":{"type":["number","null"]},
                   "CREATED":{"type":["string","null"]}},"additionalProperties":false},
                  "tokens":{"type":"object","description":"Token keys and values"}},
                 "type":"object","properties":{"table":{"type":"string"}}}
                """);
        Files.writeString(trail.resolve("ggjson_1.json"), String.join("\n", fixture()) + "\n");
        var config =
                RunningFetcher.withSchemaDirectory(
                        RunningFetcher.config(trail, List.of(), ""), schemas);
        try (RunningFetcher running = RunningFetcher.start(config, null)) {
            running.sink.awaitTransaction(t -> t.scn() == (4L << 32 | 2000));
            ChangeEvent first = running.sink.transactions().get(0).rowEvents().get(0);
            assertThat(first.after())
                    .containsExactly(
                            42L, "NEW", null, new BigDecimal("12.50"), "2026-11-26 09:59:58");
            assertThat(first.schema().keyColumns())
                    .as("keys from primary_keys")
                    .containsExactly("ID");
        }
    }

    @Test
    void shouldStopNamingFileAndOffsetWhenALineIsNotJson() throws Exception {
        List<String> lines = new java.util.ArrayList<>(fixture());
        lines.set(3, "{\"table\":\"SHOP.ORDERS\",\"op_type\":\"U\", oops");
        writeFile("ggjson_1.json", lines);
        long offset =
                (String.join("\n", lines.subList(0, 3)) + "\n")
                        .getBytes(StandardCharsets.UTF_8)
                        .length;
        assertFailure(lines, "invalid JSON", offset, 1);
    }

    @Test
    void shouldStopWhenOpTypeIsUnknown() throws Exception {
        List<String> lines = new java.util.ArrayList<>(fixture());
        lines.set(2, lines.get(2).replace("\"op_type\":\"U\"", "\"op_type\":\"X\""));
        writeFile("ggjson_1.json", lines);
        long offset =
                (String.join("\n", lines.subList(0, 2)) + "\n")
                        .getBytes(StandardCharsets.UTF_8)
                        .length;
        // The transaction before the bad line has no known end yet: nothing is published.
        assertFailure(lines, "unknown op_type: value=X", offset, 0);
    }

    @Test
    void shouldStopWhenACapturedTableHasNoSchema() throws Exception {
        List<String> lines = new java.util.ArrayList<>(fixture());
        lines.set(2, lines.get(2).replace("SHOP.ORDERS", "SHOP.INVOICES"));
        writeFile("ggjson_1.json", lines);
        long offset =
                (String.join("\n", lines.subList(0, 2)) + "\n")
                        .getBytes(StandardCharsets.UTF_8)
                        .length;
        assertFailure(lines, "captured table with no known schema: table=SHOP.INVOICES", offset, 0);
    }

    @Test
    void shouldRefuseAPositionGoingBackwardsNamingBoth() throws Exception {
        List<String> lines = new java.util.ArrayList<>(fixture());
        lines.set(3, lines.get(3).replace("00000000030000002400", "00000000030000002000"));
        writeFile("ggjson_1.json", lines);
        long offset =
                (String.join("\n", lines.subList(0, 3)) + "\n")
                        .getBytes(StandardCharsets.UTF_8)
                        .length;
        assertFailure(
                lines,
                "trail position does not advance: pos=00000000030000002000, previous=00000000030000002048",
                offset,
                1);
    }

    @Test
    void shouldRefuseABeforeImageWithAMissingColumn() throws Exception {
        List<String> lines = new java.util.ArrayList<>(fixture());
        lines.set(
                2,
                lines.get(2)
                        .replace(
                                "\"before\":{\"ID\":42,\"STATUS\":\"NEW\",",
                                "\"before\":{\"ID\":42,"));
        writeFile("ggjson_1.json", lines);
        long offset =
                (String.join("\n", lines.subList(0, 2)) + "\n")
                        .getBytes(StandardCharsets.UTF_8)
                        .length;
        assertFailure(
                lines,
                "before image of a update without a column: table=SHOP.ORDERS, column=STATUS",
                offset,
                1);
    }

    @Test
    void shouldRefuseATruncateOfACapturedTable() throws Exception {
        List<String> lines = new java.util.ArrayList<>(fixture());
        lines.set(5, lines.get(5).replace("OTHER.LOG", "SHOP.ORDERS"));
        writeFile("ggjson_1.json", lines);
        long offset =
                (String.join("\n", lines.subList(0, 5)) + "\n")
                        .getBytes(StandardCharsets.UTF_8)
                        .length;
        assertFailure(lines, "TRUNCATE of a captured table", offset, 4);
    }

    @Test
    void shouldStopWhenTheFileShrinks() throws Exception {
        Path file = dir.resolve("ggjson_1.json.tmp");
        List<String> lines = fixture();
        Files.writeString(file, String.join("\n", lines) + "\n");
        try (RunningFetcher running =
                RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), null)) {
            running.sink.awaitTransaction(t -> t.scn() == (4L << 32 | 1416));
            long size = Files.size(file);
            try (var channel = java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(size - 10);
            }
            Throwable failure = running.awaitFailure();
            assertThat(failure).hasMessageContaining("file shrank while being read: file=" + file);
            assertThat(failure).hasMessageContaining("offset=" + size);
        }
    }

    @Test
    void shouldStopWhenTheFileBeingReadDisappears() throws Exception {
        Path file = dir.resolve("ggjson_1.json.tmp");
        Files.writeString(file, String.join("\n", fixture()) + "\n");
        try (RunningFetcher running =
                RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), null)) {
            running.sink.awaitTransaction(t -> t.scn() == (4L << 32 | 1416));
            Files.delete(file);
            assertThat(running.awaitFailure())
                    .hasMessageContaining("file disappeared while being read: file=" + file)
                    .hasMessageContaining("offset=");
        }
    }

    private void assertFailure(List<String> lines, String problem, long offset, int published)
            throws Exception {
        try (RunningFetcher running =
                RunningFetcher.start(RunningFetcher.config(dir, ORDERS, ""), null)) {
            Throwable failure = running.awaitFailure();
            assertThat(failure)
                    .isInstanceOf(FetchFailedException.class)
                    .hasMessageContaining(problem)
                    .hasMessageContaining("file=" + dir.resolve("ggjson_1.json"))
                    .hasMessageContaining("offset=" + offset);
            assertThat(running.sink.transactions()).hasSize(published);
        }
    }
}
