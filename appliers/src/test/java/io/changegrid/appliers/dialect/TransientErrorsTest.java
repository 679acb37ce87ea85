package io.changegrid.appliers.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each target's classification of errors as transient or permanent, on errors as the drivers build
 * them; {@code TargetErrorsIT} has the servers raise them.
 */
class TransientErrorsTest {

    private static final Dialect POSTGRES = Dialect.of("jdbc:postgresql://localhost/db");
    private static final Dialect MARIADB = Dialect.of("jdbc:mariadb://localhost/db");

    @ParameterizedTest(name = "SQLSTATE {0}")
    @ValueSource(strings = {"08006", "40001", "40P01", "53300", "57P01", "55P03", "HYT00"})
    void shouldRetryWhenThePostgresStateSaysTheSameWorkCanSucceedLater(String state) {
        assertThat(POSTGRES.isTransient(new SQLException("target said no", state))).isTrue();
    }

    @ParameterizedTest(name = "SQLSTATE {0}")
    @ValueSource(strings = {"23505", "22003", "22P02", "42601", "42P01"})
    void shouldNotRetryWhenThePostgresStateSaysTheSameWorkFailsAgain(String state) {
        assertThat(POSTGRES.isTransient(new SQLException("target said no", state))).isFalse();
    }

    @ParameterizedTest(name = "MariaDB error {0}")
    @ValueSource(ints = {1205, 1213, 1927, 2006, 2013, 4031})
    void shouldRetryMariaDbLockWaitDeadlockAndLostServerWhenOnlyTheCodeSaysSo(int code) {
        assertThat(MARIADB.isTransient(new SQLException("target said no", "HY000", code))).isTrue();
    }

    @Test
    void shouldNotRetryATruncatedMariaDbValueThoughItsDriverCallsItTransient() {
        // Connector/J's class for SQLSTATE 01000, which error 1265 carries.
        SQLException truncated =
                new SQLTransientConnectionException(
                        "Data truncated for column 'e' at row 1", "01000", 1265);
        assertThat(MARIADB.isTransient(truncated)).isFalse();
        assertThat(MARIADB.isTransient(new SQLException("out of range", "22003", 1264))).isFalse();
        assertThat(MARIADB.isTransient(new SQLException("duplicate", "23000", 1062))).isFalse();
    }

    @Test
    void shouldLookAtCausesWhenTheTransientErrorIsWrapped() {
        SQLException wrapped =
                new SQLException("batch failed", "HY000", new SQLException("reset", "08006"));
        assertThat(POSTGRES.isTransient(wrapped)).isTrue();
        assertThat(MARIADB.isTransient(wrapped)).isTrue();
    }
}
