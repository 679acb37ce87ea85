package io.changegrid.events.frame;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.json.EventJsonReader;
import io.changegrid.events.json.EventJsonWriter;
import io.changegrid.events.schema.Column;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import io.changegrid.events.value.Geometry;
import io.changegrid.events.value.SqlDate;
import io.changegrid.events.value.SqlDateTime;
import io.changegrid.events.value.ValueType;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Property-style: random schemas and random rows survive binary and JSON round trips. The seed is
 * printed with every failure; rerun one with {@code -Dchangegrid.seed=<seed>}.
 */
class RandomRowRoundTripTest {

    private static final ValueType[] TYPES = ValueType.values();

    @Test
    void shouldRoundTripRandomRowsOfRandomSchemasThroughBinaryAndJson() throws IOException {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        Random random = new Random(seed);
        SchemaRegistry registry = new SchemaRegistry();
        EventJsonReader jsonReader = new EventJsonReader(registry);
        ChangeEventDecoder decoder = new ChangeEventDecoder(registry);
        FrameEncoder encoder = new FrameEncoder(1024);
        EventFrame frame = new EventFrame();
        CRC32C crc = new CRC32C();

        for (int table = 0; table < 40; table++) {
            TableSchema schema = randomSchema(registry, random, table);
            for (int rowNumber = 0; rowNumber < 100; rowNumber++) {
                String context =
                        "seed="
                                + seed
                                + " (rerun with -Dchangegrid.seed="
                                + seed
                                + "), table="
                                + table
                                + ", row="
                                + rowNumber;
                Object[] before = randomRow(schema, random);
                Object[] after = randomRow(schema, random);
                encoder.buffer().clear();
                encoder.beginTransaction(
                        3, rowNumber, random.nextLong() >>> 12, "txn-" + rowNumber);
                encoder.appendRowChange(Operation.UPDATE, schema, before, after);
                encoder.endTransaction();

                ByteBuffer bytes = encoder.buffer().byteBuffer();
                frame.wrapChecked(bytes, 0, encoder.buffer().position(), crc);
                ChangeEvent decoded = decoder.decode(frame);
                assertThat(decoded.before()).as(context).isEqualTo(before);
                assertThat(decoded.after()).as(context).isEqualTo(after);

                StringWriter json = new StringWriter();
                try (JsonGenerator out = new JsonFactory().createGenerator(json)) {
                    EventJsonWriter.write(out, decoded);
                }
                assertThat(jsonReader.read(json.toString()))
                        .as(context + ", json=" + json)
                        .isEqualTo(decoded);
            }
        }
    }

    static TableSchema randomSchema(SchemaRegistry registry, Random random, int table) {
        int count = 1 + random.nextInt(24);
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("k", ValueType.INT64, "bigint", false, 0));
        for (int i = 1; i < count; i++) {
            ValueType type = TYPES[random.nextInt(TYPES.length)];
            int width = type == ValueType.BITS ? 1 + random.nextInt(64) : 0;
            columns.add(new Column("c" + i + "_\u00e9", type, null, random.nextInt(4) != 0, width));
        }
        List<String> key = random.nextInt(5) == 0 ? List.of() : List.of("k");
        return registry.register("db" + table, "t" + table, columns, key);
    }

    static Object[] randomRow(TableSchema schema, Random random) {
        Object[] row = new Object[schema.columnCount()];
        for (int i = 0; i < row.length; i++) {
            Column column = schema.column(i);
            boolean isNull = column.nullable() && random.nextInt(6) == 0;
            row[i] = isNull ? null : randomValue(column, random);
        }
        return row;
    }

    private static Object randomValue(Column column, Random random) {
        return switch (column.type()) {
            case BOOLEAN -> random.nextBoolean();
            case INT64 ->
                    random.nextInt(3) == 0 ? (long) random.nextInt(256) - 128 : random.nextLong();
            case UINT64 -> new BigInteger(64, random);
            case FLOAT32 -> Float.intBitsToFloat(random.nextInt());
            case FLOAT64 -> Double.longBitsToDouble(random.nextLong());
            case DECIMAL ->
                    new BigDecimal(
                            new BigInteger(1 + random.nextInt(216), random)
                                    .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)),
                            random.nextInt(61) - 15);
            case BITS -> {
                BitSet bits = new BitSet();
                for (int b = 0; b < column.width(); b++) {
                    if (random.nextBoolean()) {
                        bits.set(b);
                    }
                }
                yield bits;
            }
            case DATE -> randomDate(random);
            case TIME -> Duration.ofNanos(random.nextLong() % (839L * 3600 * 1_000_000_000L));
            case DATETIME ->
                    new SqlDateTime(
                            randomDate(random),
                            Math.floorMod(random.nextLong(), 86_400_000_000_000L));
            case TIMESTAMP ->
                    Instant.ofEpochSecond(random.nextInt(), random.nextInt(1_000_000_000));
            case TIMESTAMP_TZ ->
                    OffsetDateTime.ofInstant(
                            Instant.ofEpochSecond(random.nextInt(), random.nextInt(1_000_000_000)),
                            ZoneOffset.ofTotalSeconds(random.nextInt(36 * 3600 + 1) - 18 * 3600));
            case STRING, JSON -> randomText(random);
            case BYTES -> {
                byte[] bytes = new byte[random.nextInt(300)];
                random.nextBytes(bytes);
                yield bytes;
            }
            case GEOMETRY -> {
                byte[] wkb = new byte[random.nextInt(64)];
                random.nextBytes(wkb);
                yield new Geometry(random.nextInt(), wkb);
            }
        };
    }

    private static SqlDate randomDate(Random random) {
        return new SqlDate(
                random.nextInt(10_000) - (random.nextInt(10) == 0 ? 5000 : 0),
                random.nextInt(13),
                random.nextInt(32));
    }

    private static String randomText(Random random) {
        int length = random.nextInt(200);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(10);
            if (kind < 6) {
                text.append((char) (' ' + random.nextInt(95)));
            } else if (kind < 8) {
                text.append((char) (0xA0 + random.nextInt(0x700)));
            } else if (kind < 9) {
                text.appendCodePoint(0x1F600 + random.nextInt(80));
            } else {
                text.append((char) random.nextInt(0x20));
            }
        }
        return text.toString();
    }
}
