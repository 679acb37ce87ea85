package io.changegrid.fetchers.goldengate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** TIMESTAMP text read by hand must mean what java.time reads it as, and refuse what it refuses. */
class JsonCellsTest {

    @Test
    void shouldReadTimestampsAsJavaTimeDoesWhenTheTextHasNoZoneAZOrAnOffset() {
        long seed = Long.getLong("changegrid.seed", System.nanoTime());
        System.out.println("seed=" + seed + " (rerun with -Dchangegrid.seed=" + seed + ")");
        SplittableRandom random = new SplittableRandom(seed);
        DateTimeFormatter goldenGate = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
        for (int i = 0; i < 20_000; i++) {
            LocalDateTime local =
                    LocalDateTime.ofEpochSecond(
                            random.nextLong(-62_135_596_800L, 253_402_300_799L),
                            random.nextInt(1_000_000) * 1_000,
                            ZoneOffset.UTC);
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(random.nextInt(-18 * 60, 18 * 60) * 60);
            Instant utc = local.toInstant(ZoneOffset.UTC);
            assertThat(JsonCells.instant(goldenGate.format(local)))
                    .as("seed=%d", seed)
                    .isEqualTo(utc);
            assertThat(JsonCells.instant(local.toString())).isEqualTo(utc);
            assertThat(JsonCells.instant(utc.toString())).isEqualTo(utc);
            String zoned = local.atOffset(offset).toString();
            assertThat(JsonCells.instant(zoned))
                    .as("text=%s", zoned)
                    .isEqualTo(OffsetDateTime.parse(zoned).toInstant());
        }
    }

    @Test
    void shouldReadTheFormsOnlyJavaTimeKnowsWhenTheTextIsNotGoldenGates() {
        assertThat(JsonCells.instant("2026-11-26T10:00")).isEqualTo("2026-11-26T10:00:00Z");
        assertThat(JsonCells.instant("2026-11-26T10:00:00+01:00:30"))
                .isEqualTo("2026-11-26T08:59:30Z");
        assertThat(JsonCells.instant(" 2026-11-26 10:00:00.5 "))
                .isEqualTo("2026-11-26T10:00:00.5Z");
    }

    @Test
    void shouldRefuseTimestampsWhenJavaTimeRefusesThem() {
        for (String text :
                List.of(
                        "2026-02-30 10:00:00",
                        "0000-00-00 00:00:00",
                        "2026-11-26 24:00:00",
                        "2026-11-26 10:00:00+19:00",
                        "2026-11-26 10:00:00.1234567890",
                        "yesterday")) {
            assertThatThrownBy(() -> JsonCells.instant(text))
                    .as(text)
                    .isInstanceOf(RuntimeException.class);
        }
    }
}
