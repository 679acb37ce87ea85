package io.changegrid.fetchers.logminer.mining;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The Oracle-only statements on their exact text: no Oracle runs in this project's CI, so a change
 * to any of them must be deliberate and checked against Oracle's DBMS_LOGMNR reference.
 */
class OracleMiningStatementsTest {

    @Test
    void shouldStartSessionWithOnlineCatalogAndNoRowIdWhenWindowStarts() {
        assertThat(OracleMiningStatements.START_LOGMNR)
                .isEqualTo(
                        "BEGIN DBMS_LOGMNR.START_LOGMNR(STARTSCN => ?, ENDSCN => ?,"
                                + " OPTIONS => DBMS_LOGMNR.DICT_FROM_ONLINE_CATALOG + DBMS_LOGMNR.NO_ROWID_IN_STMT); END;")
                .doesNotContain("COMMITTED_DATA_ONLY")
                .doesNotContain("CONTINUOUS_MINE");
    }

    @Test
    void shouldEndSessionWhenWindowIsRead() {
        assertThat(OracleMiningStatements.END_LOGMNR)
                .isEqualTo("BEGIN DBMS_LOGMNR.END_LOGMNR; END;");
    }

    @Test
    void shouldAddFirstLogFileAsNewListAndOthersToItWhenSessionStarts() {
        assertThat(OracleMiningStatements.ADD_FIRST_LOG_FILE)
                .isEqualTo(
                        "BEGIN DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => ?, OPTIONS => DBMS_LOGMNR.NEW); END;");
        assertThat(OracleMiningStatements.ADD_LOG_FILE)
                .isEqualTo(
                        "BEGIN DBMS_LOGMNR.ADD_LOGFILE(LOGFILENAME => ?, OPTIONS => DBMS_LOGMNR.ADDFILE); END;");
    }

    @Test
    void shouldFindArchivedAndUnarchivedOnlineLogsWhenWindowOverlapsThem() {
        assertThat(OracleMiningStatements.LOG_FILES)
                .isEqualTo(
                        "SELECT NAME FROM V$ARCHIVED_LOG"
                                + " WHERE NAME IS NOT NULL AND STANDBY_DEST = 'NO' AND DELETED = 'NO'"
                                + " AND FIRST_CHANGE# <= ? AND NEXT_CHANGE# > ?"
                                + " UNION"
                                + " SELECT MIN(F.MEMBER) FROM V$LOG L JOIN V$LOGFILE F ON F.GROUP# = L.GROUP#"
                                + " WHERE L.ARCHIVED = 'NO' AND L.FIRST_CHANGE# <= ? AND L.NEXT_CHANGE# > ?"
                                + " GROUP BY L.GROUP#");
    }

    @Test
    void shouldReadCurrentScnFromVDatabaseWhenWindowIsPlanned() {
        assertThat(OracleMiningStatements.CURRENT_SCN)
                .isEqualTo("SELECT CURRENT_SCN FROM V$DATABASE");
    }

    @Test
    void shouldSetFullPrecisionFormatsAndUtcWhenSessionIsPrepared() {
        assertThat(OracleMiningStatements.SESSION)
                .containsExactly(
                        "ALTER SESSION SET NLS_DATE_FORMAT = 'SYYYY-MM-DD HH24:MI:SS'",
                        "ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'SYYYY-MM-DD HH24:MI:SS.FF9'",
                        "ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT = 'SYYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'",
                        "ALTER SESSION SET NLS_NUMERIC_CHARACTERS = '.,'",
                        "ALTER SESSION SET TIME_ZONE = '+00:00'");
    }

    @Test
    void shouldFilterWindowToControlRowsAndCapturedOwnersWhenQueried() {
        assertThat(ContentsQuery.text(2))
                .isEqualTo(
                        "SELECT SCN, SQL_REDO, OPERATION_CODE, \"TIMESTAMP\", XID, CSF, SEG_OWNER, TABLE_NAME, ROW_ID,"
                                + " \"ROLLBACK\", INFO, SSN, \"THREAD#\", RS_ID FROM V$LOGMNR_CONTENTS"
                                + " WHERE SCN > ? AND SCN <= ? AND (OPERATION_CODE IN (6, 7, 36)"
                                + " OR (OPERATION_CODE IN (1, 2, 3, 5, 9, 10, 11, 29, 255) AND SEG_OWNER IN (?, ?)))");
    }
}
