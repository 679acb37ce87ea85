package io.changegrid.gridkit.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RowValuesTest {

    @Test
    void shouldVaryEveryColumnWhenRowsFollowEachOther() {
        RowValues values = new RowValues(1_100, 1);
        Set<String> accounts = new HashSet<>();
        Set<String> notes = new HashSet<>();
        for (int id = 1; id <= 200; id++) {
            StringBuilder sql = new StringBuilder();
            values.appendRow(sql, id);
            String[] fields = sql.substring(1, sql.length() - 1).split(",'|',|,");
            accounts.add(fields[1]);
            notes.add(sql.substring(sql.lastIndexOf(",'")));
        }
        assertThat(accounts).hasSizeGreaterThan(150);
        assertThat(notes).hasSize(200);
    }

    @Test
    void shouldRepeatTheSameRowsWhenTheSeedIsTheSame() {
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        new RowValues(500, 9).appendRow(first, 1);
        new RowValues(500, 9).appendRow(second, 1);

        assertThat(first.toString()).isEqualTo(second.toString());
    }

    @Test
    void shouldKeepNotesWithinTheirColumnWhenTheRecordIsLarge() {
        RowValues values = new RowValues(LoadShape.MAX_RECORD_SIZE, 3);
        StringBuilder sql = new StringBuilder();
        values.appendRow(sql, 1);

        for (String note :
                sql.substring(sql.indexOf("NOW(6)") + 8, sql.length() - 2).split("','")) {
            assertThat(note.length()).isLessThanOrEqualTo(values.maxText());
        }
    }
}
