package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DdlDigestTest {

    @Test
    void shouldBeTheSha256OfTheStatementTextWhenComputed() {
        // The SHA-256 of no bytes, as `printf %s "" | sha256sum` prints it.
        assertThat(DdlDigest.of(""))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(DdlDigest.isDigest(DdlDigest.of("ALTER TABLE t ENGINE=InnoDB"))).isTrue();
        assertThat(DdlDigest.isDigest("not a digest")).isFalse();
    }

    @Test
    void shouldRefuseASkipEntryWhenItIsNoDigest() {
        assertThatThrownBy(() -> config(Set.of("abc")))
                .hasMessageContaining("source.ddlSkip entry is not a SHA-256 in hex: value=abc");
        assertThat(config(Set.of(DdlDigest.of("x").toUpperCase())).ddlSkip())
                .containsExactly(DdlDigest.of("x"));
    }

    private static BinlogFetcherConfig config(Set<String> ddlSkip) {
        return new BinlogFetcherConfig(
                "db",
                3306,
                "user",
                "",
                1,
                1,
                TableFilter.all(),
                CapturePlan.everything(),
                new StartPosition.Current(),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                1 << 20,
                ddlSkip);
    }
}
