package io.changegrid.fetchers.logminer.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.events.Operation;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.fetchers.logminer.failure.FetchFailedException;
import io.changegrid.fetchers.logminer.redo.RedoSyntaxException;
import io.changegrid.fetchers.logminer.redo.SqlRedoParser;
import io.changegrid.fetchers.logminer.schema.OracleColumn;
import io.changegrid.fetchers.logminer.schema.OracleType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Parser and typing fixtures of our own, written in the {@code SQL_REDO} shapes Oracle's LogMiner
 * documentation shows ({@code insert into "OWNER"."TABLE"("COL",..) values (..);}, {@code update ..
 * set .. where ..;}, {@code delete from .. where ..;}), with the session formats the fetcher sets
 * ({@code NlsFormats}). Each fixture goes through the parser and the typing into event values.
 */
class SqlRedoFixturesTest {

    /** One table with a column of every supported type. */
    private static final List<OracleColumn> COLUMNS =
            List.of(
                    column("ID", "NUMBER", 22, 10, 0, false),
                    column("AMOUNT", "NUMBER", 22, 12, 2, true),
                    column("N", "NUMBER", 22, null, null, true),
                    column("BF", "BINARY_FLOAT", 4, null, null, true),
                    column("BD", "BINARY_DOUBLE", 8, null, null, true),
                    column("NAME", "VARCHAR2", 100, null, null, true),
                    column("NNAME", "NVARCHAR2", 50, null, null, true),
                    column("CODE", "CHAR", 3, null, null, true),
                    column("D", "DATE", 7, null, null, true),
                    column("TS", "TIMESTAMP(6)", 11, null, 6, true),
                    column("TSTZ", "TIMESTAMP(9) WITH TIME ZONE", 13, null, 9, true),
                    column("TSLTZ", "TIMESTAMP(6) WITH LOCAL TIME ZONE", 11, null, 6, true),
                    column("R", "RAW", 16, null, null, true),
                    column("C", "CLOB", 4000, null, null, true),
                    column("B", "BLOB", 4000, null, null, true),
                    column("IDS", "INTERVAL DAY(2) TO SECOND(6)", 11, 2, 6, true),
                    column("IYM", "INTERVAL YEAR(2) TO MONTH", 5, 2, 0, true),
                    column("Odd \"Name\"", "VARCHAR2", 10, null, null, true));

    private final TableBinding table = binding();
    private final SqlRedoParser parser = new SqlRedoParser();

    private static OracleColumn column(
            String name,
            String type,
            int length,
            Integer precision,
            Integer scale,
            boolean nullable) {
        return new OracleColumn(name, OracleType.of(type, length, precision, scale), nullable);
    }

    private static TableBinding binding() {
        var registry = new SchemaRegistry();
        var schema =
                registry.register(
                        "SHOP",
                        "T",
                        COLUMNS.stream().map(OracleColumn::column).toList(),
                        List.of("ID"));
        return new TableBinding(schema, COLUMNS, null);
    }

    private RowImages.Change change(String sqlRedo) {
        return RowImages.of(table, parser.parse(sqlRedo), "fixture");
    }

    private Map<String, Object> after(String sqlRedo) {
        return named(change(sqlRedo).after());
    }

    private Map<String, Object> before(String sqlRedo) {
        return named(change(sqlRedo).before());
    }

    private static Map<String, Object> named(Object[] image) {
        Map<String, Object> named = new LinkedHashMap<>();
        for (int i = 0; i < image.length; i++) {
            if (image[i] != null) {
                named.put(COLUMNS.get(i).name(), image[i]);
            }
        }
        return named;
    }

    private static final String FULL_WHERE =
            " where \"ID\" = '7' and \"AMOUNT\" IS NULL and \"N\" IS NULL and \"BF\" IS NULL and \"BD\" IS NULL"
                    + " and \"NAME\" = 'old' and \"NNAME\" IS NULL and \"CODE\" IS NULL and \"D\" IS NULL"
                    + " and \"TS\" IS NULL and \"TSTZ\" IS NULL and \"TSLTZ\" IS NULL and \"R\" IS NULL"
                    + " and \"IDS\" IS NULL and \"IYM\" IS NULL and \"Odd \"\"Name\"\"\" IS NULL";

    /** LogMiner never puts LOBs in WHERE: an update must set them to be carried whole. */
    private static final String SET_LOBS = ", \"C\" = 'c', \"B\" = HEXTORAW('01')";

    // 1
    @Test
    void shouldReadIntegerNumberWhenInsertQuotesIt() {
        assertThat(after("insert into \"SHOP\".\"T\"(\"ID\") values ('42');"))
                .containsEntry("ID", 42L);
    }

    // 2
    @Test
    void shouldKeepColumnScaleWhenNumberHasFewerDigits() {
        assertThat(after("insert into \"SHOP\".\"T\"(\"ID\",\"AMOUNT\") values ('1','12.5');"))
                .containsEntry("AMOUNT", new BigDecimal("12.50"));
    }

    // 3
    @Test
    void shouldKeepExactDigitsWhenNumberHasNoPrecision() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"N\") values ('1','-.000000000000000000000000000000000001');"))
                .containsEntry("N", new BigDecimal("-1E-36"));
    }

    // 4
    @Test
    void shouldReadThirtyEightDigitNumberWhenUnbounded() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"N\") values ('1','99999999999999999999999999999999999999');"))
                .containsEntry("N", new BigDecimal("99999999999999999999999999999999999999"));
    }

    // 5
    @Test
    void shouldReadBinaryFloatWhenRenderedWithExponent() {
        assertThat(after("insert into \"SHOP\".\"T\"(\"ID\",\"BF\") values ('1','1.5E+000');"))
                .containsEntry("BF", 1.5f);
    }

    // 6
    @Test
    void shouldReadBinaryDoubleSpecialValuesWhenNanAndInfinity() {
        var values =
                after(
                        "insert into \"SHOP\".\"T\"(\"ID\",\"BF\",\"BD\") values ('1','Nan','-Inf');");
        assertThat((Float) values.get("BF")).isNaN();
        assertThat(values).containsEntry("BD", Double.NEGATIVE_INFINITY);
    }

    // 7
    @Test
    void shouldUnescapeDoubledQuotesWhenValueHoldsQuotes() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"NAME\") values ('1','O''Brien''s ''pub''');"))
                .containsEntry("NAME", "O'Brien's 'pub'");
    }

    // 8
    @Test
    void shouldKeepLineBreaksWhenValueSpansLines() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"NAME\") values ('1','first line\nsecond; line\r\nthird');"))
                .containsEntry("NAME", "first line\nsecond; line\r\nthird");
    }

    // 9
    @Test
    void shouldJoinPiecesWhenValueIsConcatenated() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"C\") values ('1','abc' || 'def' ||\n 'g''h');"))
                .containsEntry("C", "abcdefg'h");
    }

    // 10
    @Test
    void shouldDecodeUnistrWhenNationalValueIsNotAscii() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"NNAME\") values ('1',UNISTR('\\041f\\0440\\0438 \\\\ ok'));"))
                .containsEntry("NNAME", "При \\ ok");
    }

    // 11
    @Test
    void shouldJoinUnistrAndQuotedPiecesWhenConcatenated() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"NNAME\") values ('1','caf' || UNISTR('\\00e9') || ' ' || UNISTR('\\d83d\\de00'));"))
                .containsEntry("NNAME", "café 😀");
    }

    // 12
    @Test
    void shouldKeepTrailingBlanksWhenCharIsPadded() {
        assertThat(after("insert into \"SHOP\".\"T\"(\"ID\",\"CODE\") values ('1','A  ');"))
                .containsEntry("CODE", "A  ");
    }

    // 13
    @Test
    void shouldReadDateWithTimeWhenToDate() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"D\") values ('1',TO_DATE(' 2026-11-26 07:05:09', 'SYYYY-MM-DD HH24:MI:SS'));"))
                .containsEntry(
                        "D",
                        new SqlDateTime(
                                new SqlDate(2026, 11, 26),
                                ((7 * 60 + 5) * 60 + 9) * 1_000_000_000L));
    }

    // 14
    @Test
    void shouldCountBcYearsProlepticallyWhenDateIsBeforeChrist() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"D\") values ('1',TO_DATE('-4712-01-01 00:00:00', 'SYYYY-MM-DD HH24:MI:SS'));"))
                .containsEntry("D", new SqlDateTime(new SqlDate(-4711, 1, 1), 0));
    }

    // 15
    @Test
    void shouldReadNineFractionDigitsWhenToTimestamp() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"TS\") values ('1',TO_TIMESTAMP(' 9999-12-31 23:59:59.999999000'));"))
                .containsEntry(
                        "TS", new SqlDateTime(new SqlDate(9999, 12, 31), 86_399_999_999_000L));
    }

    // 16
    @Test
    void shouldReadTimestampWhenFormatIsGiven() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"TS\") values ('1',TO_TIMESTAMP('2000-02-29 12:00:00.000000001', 'SYYYY-MM-DD HH24:MI:SS.FF9'));"))
                .containsEntry(
                        "TS", new SqlDateTime(new SqlDate(2000, 2, 29), 43_200_000_000_001L));
    }

    // 17
    @Test
    void shouldKeepOffsetWhenToTimestampTz() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"TSTZ\") values ('1',TO_TIMESTAMP_TZ(' 2026-03-29 01:30:00.123456789 -05:30'));"))
                .containsEntry(
                        "TSTZ",
                        OffsetDateTime.of(
                                2026,
                                3,
                                29,
                                1,
                                30,
                                0,
                                123_456_789,
                                ZoneOffset.ofHoursMinutes(-5, -30)));
    }

    // 18
    @Test
    void shouldReadLocalTimeZoneAsUtcInstantWhenRenderedWithoutOffset() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"TSLTZ\") values ('1',TO_TIMESTAMP(' 1970-01-01 00:00:01.500000000'));"))
                .containsEntry("TSLTZ", Instant.ofEpochSecond(1, 500_000_000));
    }

    // 19
    @Test
    void shouldReadHexWhenHextoraw() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"R\") values ('1',HEXTORAW('00ff7F80'));"))
                .containsEntry("R", new byte[] {0, (byte) 0xff, 0x7f, (byte) 0x80});
    }

    // 20
    @Test
    void shouldReadEmptyLobsWhenEmptyBlobAndEmptyClob() {
        var values =
                after(
                        "insert into \"SHOP\".\"T\"(\"ID\",\"C\",\"B\") values ('1',EMPTY_CLOB(),EMPTY_BLOB());");
        assertThat(values).containsEntry("C", "").containsEntry("B", new byte[0]);
    }

    // 21
    @Test
    void shouldReadSignedDurationWhenDayToSecondInterval() {
        var values =
                after(
                        "insert into \"SHOP\".\"T\"(\"ID\",\"IDS\",\"IYM\") values ('1',TO_DSINTERVAL('-03 04:05:06.700000'),TO_YMINTERVAL('+01-11'));");
        assertThat(values)
                .containsEntry(
                        "IDS",
                        Duration.ofDays(3)
                                .plusHours(4)
                                .plusMinutes(5)
                                .plusSeconds(6)
                                .plusMillis(700)
                                .negated())
                .containsEntry("IYM", "+01-11");
    }

    // 22
    @Test
    void shouldReadNullWhenValueIsNull() {
        var change =
                change("insert into \"SHOP\".\"T\"(\"ID\",\"NAME\",\"D\") values ('1',NULL,NULL);");
        assertThat(named(change.after())).containsOnlyKeys("ID");
    }

    // 23
    @Test
    void shouldUnescapeIdentifierWhenColumnNameHasQuotes() {
        assertThat(
                        after(
                                "insert into \"SHOP\".\"T\"(\"ID\",\"Odd \"\"Name\"\"\") values ('1','x');"))
                .containsEntry("Odd \"Name\"", "x");
    }

    // 24
    @Test
    void shouldAcceptAnyKeywordCaseAndSpacingWhenWritten() {
        assertThat(
                        after(
                                "INSERT   INTO \"SHOP\".\"T\" ( \"ID\" , \"NAME\" )\nVALUES\n( '3' , 'x' )"))
                .containsEntry("ID", 3L);
    }

    // 25
    @Test
    void shouldApplySetToWholeOldRowWhenUpdate() {
        var change =
                change(
                        "update \"SHOP\".\"T\" set \"NAME\" = 'new', \"AMOUNT\" = '3.1'"
                                + SET_LOBS
                                + FULL_WHERE
                                + ";");
        assertThat(change.operation()).isEqualTo(Operation.UPDATE);
        assertThat(named(change.before())).containsEntry("NAME", "old").doesNotContainKey("AMOUNT");
        assertThat(named(change.after()))
                .containsEntry("NAME", "new")
                .containsEntry("AMOUNT", new BigDecimal("3.10"))
                .containsEntry("ID", 7L);
    }

    // 26
    @Test
    void shouldSetNullWhenUpdateAssignsNull() {
        var change =
                change("update \"SHOP\".\"T\" set \"NAME\" = NULL" + SET_LOBS + FULL_WHERE + ";");
        assertThat(named(change.after())).doesNotContainKey("NAME");
    }

    // 27
    @Test
    void shouldSkipRowidConditionWhenStatementHasOne() {
        var change =
                change(
                        "update \"SHOP\".\"T\" set \"NAME\" = 'n'"
                                + SET_LOBS
                                + FULL_WHERE
                                + " and ROWID = 'AAASs1AAEAAAAFfAAA';");
        assertThat(named(change.after())).containsEntry("NAME", "n");
    }

    // 28
    @Test
    void shouldReadOldRowWhenDelete() {
        var change = change("delete from \"SHOP\".\"T\"" + FULL_WHERE + ";");
        assertThat(change.operation()).isEqualTo(Operation.DELETE);
        assertThat(named(change.before())).containsEntry("ID", 7L).containsEntry("NAME", "old");
        assertThat(change.after()).isNull();
    }

    // 29
    @Test
    void shouldReadValueWithEqualsAndAndWhenQuotedInWhere() {
        String where =
                FULL_WHERE.replace("\"NAME\" = 'old'", "\"NAME\" = 'a = b and \"C\" IS NULL'");
        assertThat(before("delete from \"SHOP\".\"T\"" + where))
                .containsEntry("NAME", "a = b and \"C\" IS NULL");
    }

    // 30
    @Test
    void shouldRefuseUnsupportedTypeNamingTableAndColumnWhenCaptured() {
        assertThatThrownBy(
                        () ->
                                change(
                                        "insert into \"SHOP\".\"T\"(\"ID\",\"NAME\") values ('1',Unsupported Type);"))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("table=SHOP.T")
                .hasMessageContaining("column=NAME")
                .hasMessageContaining("Unsupported Type");
    }

    // 31
    @Test
    void shouldRefuseUpdateWhenLobIsNeitherSetNorInWhere() {
        String where = FULL_WHERE;
        assertThatThrownBy(() -> change("update \"SHOP\".\"T\" set \"NAME\" = 'n'" + where + ";"))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("column=C")
                .hasMessageContaining("LOB");
    }

    // 32
    @Test
    void shouldRefuseColumnUnknownToSchemaWhenRedoNamesIt() {
        assertThatThrownBy(
                        () ->
                                change(
                                        "insert into \"SHOP\".\"T\"(\"ID\",\"NEWCOL\") values ('1','x');"))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("column=NEWCOL");
    }

    // 33
    @Test
    void shouldRefuseHexWhenColumnIsNumber() {
        assertThatThrownBy(
                        () ->
                                change(
                                        "insert into \"SHOP\".\"T\"(\"ID\",\"AMOUNT\") values ('1',HEXTORAW('00'));"))
                .isInstanceOf(FetchFailedException.class)
                .hasMessageContaining("column=AMOUNT")
                .hasMessageContaining("form=HEX");
    }

    // 34
    @Test
    void shouldRefuseMoreDigitsThanScaleWhenNumberIsRounded() {
        assertThatThrownBy(
                        () ->
                                change(
                                        "insert into \"SHOP\".\"T\"(\"ID\",\"AMOUNT\") values ('1','1.005');"))
                .hasMessageContaining("scale=2");
    }

    // 35
    @Test
    void shouldRefuseDateFormatWhenSessionFormatWasNotSet() {
        assertThatThrownBy(
                        () ->
                                change(
                                        "insert into \"SHOP\".\"T\"(\"ID\",\"D\") values ('1',TO_DATE('26-NOV-26', 'DD-MON-RR'));"))
                .hasMessageContaining("format=DD-MON-RR");
    }

    // 36
    @Test
    void shouldRefuseUnterminatedQuoteNamingOffsetWhenTextIsCut() {
        assertThatThrownBy(
                        () ->
                                parser.parse(
                                        "insert into \"SHOP\".\"T\"(\"ID\",\"NAME\") values ('1','cut"))
                .isInstanceOf(RedoSyntaxException.class)
                .hasMessageContaining("closing quote");
    }

    // 37
    @Test
    void shouldRefuseCountMismatchWhenValuesAreFewerThanColumns() {
        assertThatThrownBy(
                        () ->
                                parser.parse(
                                        "insert into \"SHOP\".\"T\"(\"ID\",\"NAME\") values ('1');"))
                .isInstanceOf(RedoSyntaxException.class)
                .hasMessageContaining("as many values as columns");
    }

    // 38
    @Test
    void shouldRefuseOtherStatementsWhenNotARowChange() {
        assertThatThrownBy(() -> parser.parse("set transaction read write;"))
                .isInstanceOf(RedoSyntaxException.class)
                .hasMessageContaining("insert, update or delete");
    }

    // 39
    @Test
    void shouldReadNegativeAndBareNumbersWhenUnquoted() {
        assertThat(after("insert into \"SHOP\".\"T\"(\"ID\",\"N\") values (-12,1.5E+3);"))
                .containsEntry("ID", -12L)
                .containsEntry("N", new BigDecimal("1.5E+3"));
    }

    // 40
    @Test
    void shouldKeepEmptyStringWhenQuotedEmpty() {
        // Oracle stores '' in VARCHAR2 as NULL, so LogMiner writes NULL; a CLOB may hold ''.
        assertThat(after("insert into \"SHOP\".\"T\"(\"ID\",\"C\") values ('1','');"))
                .containsEntry("C", "");
    }
}
