package io.changegrid.fetchers.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source.format: xml}: GoldenGate's XML output as LinkedIn Databus read it, a stream of
 * {@code <transaction>} elements in files named with a sequence number.
 */
class XmlTrailTest {

    private static final List<String> ORDERS =
            List.of(
                    "SHOP.ORDERS(ID NUMBER(10) key, STATUS VARCHAR2(20), NOTE VARCHAR2(200), AMOUNT NUMBER(12,2))");

    private static final String INSERT =
            """
            <transaction timestamp="2026-11-26:10:00:00.000000">
              <dbupdate table="SHOP.ORDERS" type="insert">
                <columns>
                  <column name="ID" key="true">42</column>
                  <column name="STATUS">NEW</column>
                  <column name="NOTE">caf\u00e9 &amp; &lt;tea&gt; &#x2603;</column>
                  <column name="AMOUNT">12.50</column>
                </columns>
                <tokens><token name="TK-XID">7.12.345</token><token name="TK-CSN">918273</token></tokens>
              </dbupdate>
            </transaction>
            """;
    private static final String UPDATE_AND_DELETE =
            """
            <transaction timestamp="2026-11-26:10:00:01.500000">
              <dbupdate table="SHOP.ORDERS" type="update" image="before">
                <columns>
                  <column name="ID" key="true">42</column><column name="STATUS">NEW</column>
                  <column name="NOTE" status="null"/><column name="AMOUNT">12.50</column>
                </columns>
                <tokens><token name="TK-XID">7.13.346</token><token name="TK-CSN">918280</token></tokens>
              </dbupdate>
              <dbupdate table="SHOP.ORDERS" type="update">
                <columns>
                  <column name="ID" key="true">42</column><column name="STATUS">PAID</column>
                  <column name="NOTE" status="null"/><column name="AMOUNT">12.50</column>
                </columns>
                <tokens><token name="TK-XID">7.13.346</token><token name="TK-CSN">918280</token></tokens>
              </dbupdate>
              <dbupdate table="SHOP.ORDERS" type="delete">
                <columns>
                  <column name="ID" key="true">41</column><column name="STATUS">OLD</column>
                  <column name="NOTE"></column><column name="AMOUNT">1</column>
                </columns>
                <tokens><token name="TK-XID">7.13.346</token><token name="TK-CSN">918280</token></tokens>
              </dbupdate>
            </transaction>
            """;

    @TempDir Path dir;

    @Test
    void shouldPublishEachTransactionElementWholeWhenItsEndTagIsWritten() throws Exception {
        Path file = dir.resolve("cg000000007.xml.tmp");
        Files.writeString(file, INSERT + UPDATE_AND_DELETE.substring(0, 200));
        var config = RunningFetcher.xml(RunningFetcher.config(dir, ORDERS, ""));
        try (RunningFetcher running = RunningFetcher.start(config, null)) {
            var first = running.sink.awaitTransaction(t -> true);
            assertThat(first.scn()).isEqualTo(7L << 32);
            ChangeEvent insert = first.rowEvents().get(0);
            assertThat(insert.transactionId()).isEqualTo("918273:7.12.345");
            assertThat(insert.commitTimeMicros()).isEqualTo(1_795_687_200_000_000L);
            assertThat(insert.after())
                    .containsExactly(42L, "NEW", "café & <tea> ☃", new BigDecimal("12.50"));
            Thread.sleep(100);
            assertThat(running.sink.transactions())
                    .as("the second element is not complete")
                    .hasSize(1);

            Files.writeString(file, UPDATE_AND_DELETE.substring(200), StandardOpenOption.APPEND);
            long offset = INSERT.getBytes(StandardCharsets.UTF_8).length;
            var second = running.sink.awaitTransaction(t -> t.scn() == (7L << 32 | offset));
            ChangeEvent update = second.rowEvents().get(0);
            assertThat(update.operation()).isEqualTo(Operation.UPDATE);
            assertThat(update.before()).containsExactly(42L, "NEW", null, new BigDecimal("12.50"));
            assertThat(update.after()).containsExactly(42L, "PAID", null, new BigDecimal("12.50"));
            ChangeEvent delete = second.rowEvents().get(1);
            assertThat(delete.operation()).isEqualTo(Operation.DELETE);
            assertThat(delete.before()).containsExactly(41L, "OLD", "", new BigDecimal("1"));
            String resume = second.resumePosition();
            assertThat(resume).endsWith("+" + (Files.size(file) - 1)); // right after </transaction>

            // The next file by sequence number, after a restart at the saved position.
            running.stopAndJoin();
            Files.move(file, dir.resolve("cg000000007.xml"));
            Files.writeString(dir.resolve("cg000000008.xml"), INSERT.replace("42", "43"));
            try (RunningFetcher again = RunningFetcher.start(config, resume)) {
                var third = again.sink.awaitTransaction(t -> true);
                assertThat(third.scn()).isEqualTo(8L << 32);
                assertThat(third.rowEvents().get(0).after()[0]).isEqualTo(43L);
                Thread.sleep(100);
                assertThat(again.sink.transactions()).as("nothing repeated").hasSize(1);
            }
        }
    }

    @Test
    void shouldStopNamingFileAndOffsetWhenAnElementIsNotValid() throws Exception {
        Files.writeString(
                dir.resolve("cg000000001.xml"),
                INSERT + INSERT.replace("type=\"insert\"", "type=\"merge\""));
        var config = RunningFetcher.xml(RunningFetcher.config(dir, ORDERS, ""));
        try (RunningFetcher running = RunningFetcher.start(config, null)) {
            assertThat(running.awaitFailure())
                    .hasMessageContaining("unknown dbupdate type: value=merge")
                    .hasMessageContaining("file=" + dir.resolve("cg000000001.xml"))
                    .hasMessageContaining(
                            "offset=" + INSERT.getBytes(StandardCharsets.UTF_8).length);
            assertThat(running.sink.transactions()).hasSize(1);
        }
    }
}
