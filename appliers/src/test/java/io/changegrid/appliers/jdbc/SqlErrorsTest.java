package io.changegrid.appliers.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlErrorsTest {

    @ParameterizedTest(name = "SQLSTATE {0}")
    @ValueSource(strings = {"08006", "40001", "40P01", "53300", "57P01", "55P03", "HYT00"})
    void shouldRetryWhenTheStateSaysTheSameWorkCanSucceedLater(String state) {
        assertThat(SqlErrors.isTransient(new SQLException("target said no", state))).isTrue();
    }

    @ParameterizedTest(name = "SQLSTATE {0}")
    @ValueSource(strings = {"23505", "22003", "42601", "42P01"})
    void shouldNotRetryWhenTheSameWorkFailsTheSameWayAgain(String state) {
        assertThat(SqlErrors.isTransient(new SQLException("target said no", state))).isFalse();
    }

    @ParameterizedTest(name = "MySQL error {0}")
    @ValueSource(ints = {1205, 1213, 2006, 2013})
    void shouldRetryMySqlLockWaitDeadlockAndLostServerWhenOnlyTheCodeSaysSo(int code) {
        assertThat(SqlErrors.isTransient(new SQLException("target said no", "HY000", code)))
                .isTrue();
    }

    @Test
    void shouldLookAtCausesWhenTheTransientErrorIsWrapped() {
        SQLException wrapped =
                new SQLException(
                        "batch failed", "HY000", new SQLTransientConnectionException("reset"));
        assertThat(SqlErrors.isTransient(wrapped)).isTrue();
        assertThat(SqlErrors.isTransient(new SQLException("duplicate", "23000", 1062))).isFalse();
    }
}
