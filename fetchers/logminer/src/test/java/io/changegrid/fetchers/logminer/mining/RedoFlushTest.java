package io.changegrid.fetchers.logminer.mining;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The flush table's statements on their exact text: the same on Oracle and on the stand-in. */
class RedoFlushTest {

    @Test
    void shouldUpdateTheFlushTablesOneRowWhenFlushing() {
        assertThat(RedoFlush.FLUSH).isEqualTo("UPDATE LOG_MINING_FLUSH SET LAST_SCN = ?");
        assertThat(RedoFlush.CHECK).isEqualTo("SELECT COUNT(*) FROM LOG_MINING_FLUSH");
        assertThat(RedoFlush.FIX)
                .startsWith(
                        "CREATE TABLE LOG_MINING_FLUSH (LAST_SCN NUMBER(19)); INSERT INTO"
                                + " LOG_MINING_FLUSH VALUES (0); COMMIT;");
    }
}
