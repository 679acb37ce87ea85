package io.changegrid.policy.transform;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.ValueType;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowTransformerTest {

    static final TableSchema USERS =
            new TableSchema(
                    3,
                    2,
                    "crm",
                    "users",
                    List.of(
                            new Column("id", ValueType.INT64, "bigint", false, 0),
                            Column.of("email", ValueType.STRING),
                            Column.of("phone", ValueType.STRING),
                            Column.of("salary", ValueType.DECIMAL),
                            Column.of("note", ValueType.STRING)),
                    List.of("id"));

    static ChangeEvent update(Object[] before, Object[] after) {
        return new ChangeEvent(
                9,
                1234L,
                0,
                1_700_000_000_123_456L,
                "0-1-5",
                Operation.UPDATE,
                USERS,
                before,
                after,
                null);
    }

    static final Object[] ROW = {
        1L, "zoë@example.com", "+49 170 1234567", new BigDecimal("5000.00"), "vip"
    };

    @Test
    void shouldRenameDropMaskAndAddColumnsWhenAllAreConfigured() {
        TransformSpec spec =
                new TransformSpec(
                        "crm_eu",
                        "people",
                        Set.of(),
                        Set.of(),
                        Set.of("note"),
                        Map.of("email", "mail", "id", "user_id"),
                        Map.of(
                                "email", new Masking.Hash("pepper"),
                                "phone", new Masking.Fixed('*'),
                                "salary", new Masking.Truncate(2)),
                        Map.of("region", new ColumnSource.Constant("eu")));
        RowTransformer transformer = bind(spec);
        TableSchema out = transformer.outputSchema();
        Object[] undecoded = ROW.clone(); // text as the binlog fetcher passes it: UTF-8 bytes
        undecoded[1] = ((String) ROW[1]).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        undecoded[2] = ((String) ROW[2]).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        // Text given as bytes stays bytes (masked or not), with the same text as from strings.
        assertThat(
                        java.util.Arrays.stream(transformer.row(undecoded, false, 9, 1234L, 0L))
                                .map(
                                        v ->
                                                v instanceof byte[] utf8
                                                        ? new String(
                                                                utf8,
                                                                java.nio.charset.StandardCharsets
                                                                        .UTF_8)
                                                        : v)
                                .toArray())
                .isEqualTo(transformer.row(ROW, false, 9, 1234L, 0L));
        assertThat(out.qualifiedName()).isEqualTo("crm_eu.people");
        assertThat(out.columns().stream().map(Column::name))
                .containsExactly("user_id", "mail", "phone", "salary", "region");
        assertThat(out.keyColumns()).containsExactly("user_id");
        assertThat(out.column(1).type()).isEqualTo(ValueType.STRING);
        assertThat(out.column(3).type())
                .as("masked DECIMAL becomes text")
                .isEqualTo(ValueType.STRING);
        assertThat(out.tableId()).isEqualTo(3);

        ChangeEvent result = transformer.apply(update(ROW, ROW));
        Object[] after = result.after();
        assertThat(after[0]).isEqualTo(1L);
        assertThat((String) after[1])
                .hasSize(64)
                .matches("[0-9a-f]+")
                .isEqualTo(new Masking.Hash("pepper").mask("zoë@example.com"));
        assertThat(after[2]).isEqualTo("*".repeat("+49 170 1234567".length()));
        assertThat(after[3]).isEqualTo("50");
        assertThat(after[4]).isEqualTo("eu");
        assertThat(result.before()).isEqualTo(after);
        assertThat(result.scn()).isEqualTo(1234L);
    }

    @Test
    void shouldNeverLeakTheOriginalWhenValuesAreMasked() throws Exception {
        Masking[] masks = {new Masking.Hash("s"), new Masking.Fixed('#'), new Masking.Truncate(3)};
        String secret = "geheim-😀-Geheimnis";
        for (Masking mask : masks) {
            String masked = mask.mask(secret);
            assertThat(masked)
                    .doesNotContain("geheim-")
                    .doesNotContain("Geheimnis")
                    .isNotSameAs(secret);
        }
        assertThat(new Masking.Fixed('#').mask(secret))
                .hasSize(secret.codePointCount(0, secret.length()));
        assertThat(new Masking.Truncate(8).mask(secret)).isEqualTo("geheim-😀");
        assertThat(new Masking.Hash("a").mask("x")).isNotEqualTo(new Masking.Hash("b").mask("x"));
        Masking.Hash pepper = new Masking.Hash("pepper");
        for (String value : List.of("zoë@example.com", "", secret, "zoë@example.com")) {
            // The digest is reused per thread: each value must start from the salt alone.
            assertThat(pepper.mask(value)).isEqualTo(sha256Hex("pepper" + value));
        }
        assertThat(new Masking.Hash("secret-salt").toString()).doesNotContain("secret-salt");
        Object[] withNull = ROW.clone();
        withNull[1] = null;
        RowTransformer transformer =
                bind(
                        new TransformSpec(
                                null,
                                null,
                                Set.of(),
                                Set.of(),
                                Set.of(),
                                Map.of(),
                                Map.of("email", masks[0]),
                                Map.of()));
        assertThat(transformer.row(withNull, false, update(withNull, withNull))[1]).isNull();
        assertThat(Arrays.asList(transformer.row(ROW, false, update(ROW, ROW))))
                .doesNotContain("zoë@example.com");
    }

    @Test
    void shouldAddEventMetadataWhenSourcesAreMetadata() {
        RowTransformer transformer =
                bind(
                        new TransformSpec(
                                null,
                                null,
                                Set.of("id"),
                                Set.of(),
                                Set.of(),
                                Map.of(),
                                Map.of(),
                                Map.of(
                                        "db", ColumnSource.Metadata.DATABASE,
                                        "db_hash", ColumnSource.Metadata.DATABASE_HASH,
                                        "scn", ColumnSource.Metadata.SCN,
                                        "committed", ColumnSource.Metadata.COMMIT_TIME,
                                        "source", ColumnSource.Metadata.SOURCE_ID)));
        ChangeEvent transformed = transformer.apply(update(ROW, ROW));
        Object[] row = transformed.after();
        assertThat(transformer.outputSchema().columnCount()).isEqualTo(6);
        // The before image is an earlier change's row: at which SCN and commit time it was written
        // is not known, so those are NULL (and an applier sees them change); database and source
        // are the row's own.
        assertThat(Arrays.asList(transformed.before()))
                .containsExactlyInAnyOrder(
                        1L, "crm", ColumnSource.Metadata.hashOf("crm"), null, null, 9L);
        assertThat(Arrays.asList(row))
                .contains(
                        1L,
                        "crm",
                        ColumnSource.Metadata.hashOf("crm"),
                        1234L,
                        Instant.parse("2023-11-14T22:13:20.123456Z"),
                        9L);
        assertThat(ColumnSource.Metadata.hashOf("crm"))
                .isEqualTo(ColumnSource.Metadata.hashOf("crm"))
                .isBetween(0L, 0xFFFF_FFFFL);
    }

    @Test
    void shouldReportUnknownAndDuplicateColumnsWhenTheSchemaLacksThem() {
        List<String> problems = new ArrayList<>();
        RowTransformer transformer =
                RowTransformer.bind(
                        new TransformSpec(
                                null,
                                null,
                                Set.of(),
                                Set.of("nope"),
                                Set.of(),
                                Map.of("email", "phone"),
                                Map.of(),
                                Map.of()),
                        USERS,
                        problems::add);
        assertThat(transformer).isNull();
        assertThat(problems)
                .containsExactly(
                        "unknown column: table=crm.users, key=columns.exclude, value=nope",
                        "output column defined twice: table=crm.users, value=phone");
    }

    @Test
    void shouldDropTheKeyWhenAKeyColumnIsExcluded() {
        RowTransformer transformer =
                bind(
                        new TransformSpec(
                                null,
                                null,
                                Set.of(),
                                Set.of("id"),
                                Set.of(),
                                Map.of(),
                                Map.of(),
                                Map.of()));
        assertThat(transformer.outputSchema().hasKey()).isFalse();
    }

    private static RowTransformer bind(TransformSpec spec) {
        List<String> problems = new ArrayList<>();
        RowTransformer transformer = RowTransformer.bind(spec, USERS, problems::add);
        assertThat(problems).isEmpty();
        return transformer;
    }

    @Test
    void shouldSpellEveryDigitOfTheHashAsLowercaseHex() throws Exception {
        // The hex digits are computed a word at a time: every nibble value at every position.
        Masking.Hash salted = new Masking.Hash("salt");
        for (int i = 0; i < 2_000; i++) {
            String value = "value-" + i;
            assertThat(salted.mask(value)).isEqualTo(sha256Hex("salt" + value));
        }
    }

    @Test
    void shouldMaskTextWhereItLiesAsItsCopy() throws Exception {
        // Short values are hashed behind the salt in one update, long ones in two: both the text's.
        Masking.Hash salted = new Masking.Hash("salt");
        for (int length : new int[] {0, 1, 55, 127, 128, 129, 1_000}) {
            String text = "é".repeat(length / 2) + "x".repeat(length % 2);
            byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] around = new byte[utf8.length + 7];
            Arrays.fill(around, (byte) '!');
            System.arraycopy(utf8, 0, around, 3, utf8.length);
            byte[] previous = salted.maskUtf8(new byte[] {'a'});

            byte[] mask = salted.maskUtf8(around, 3, utf8.length, previous);

            assertThat(mask).as("length %d", utf8.length).isSameAs(previous);
            assertThat(new String(mask, java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo(sha256Hex("salt" + text));
            assertThat(new Masking.Truncate(1).maskUtf8(around, 3, utf8.length, null))
                    .isEqualTo(new Masking.Truncate(1).maskUtf8(utf8));
        }
    }

    private static String sha256Hex(String text) throws Exception {
        return java.util.HexFormat.of()
                .formatHex(
                        java.security.MessageDigest.getInstance("SHA-256")
                                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void shouldMaskTextGivenAsUtf8BytesAsTheText() {
        // The binlog fetcher hands utf8mb4 text over undecoded: masks must see the text.
        String text = "zoë@example.com 😀";
        byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (Masking masking :
                List.of(
                        new Masking.Hash("pepper"),
                        new Masking.Fixed('#'),
                        new Masking.Truncate(4))) {
            assertThat(new String(masking.maskUtf8(utf8), java.nio.charset.StandardCharsets.UTF_8))
                    .as("%s", masking)
                    .isEqualTo(masking.mask(text));
        }
    }
}
