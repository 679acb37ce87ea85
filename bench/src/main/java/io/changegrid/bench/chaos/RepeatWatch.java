package io.changegrid.bench.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Triggers in the target that catch a change applied twice, which the end comparison cannot see (an
 * upsert of the same image leaves the same row). The source never updates a transfer, so any UPDATE
 * of {@code chaos.transfers} in the target — an insert's upsert meeting its own row — is a repeat;
 * every source update of an account raises its {@code version}, so an UPDATE of {@code
 * chaos.accounts} that does not raise it is an old change applied again. Each is recorded in {@code
 * public.chaos_repeats}. Installed once the appliers have created both tables.
 */
final class RepeatWatch {

    static final int EXAMPLES = 5;

    /** Changes applied twice: how many, and a few of them ({@code table id old->new version}). */
    record Repeats(long count, List<String> examples) {}

    private RepeatWatch() {}

    static void install(Connection target) throws SQLException {
        try (Statement statement = target.createStatement()) {
            statement.execute(
                    "CREATE TABLE public.chaos_repeats (tbl TEXT NOT NULL, id BIGINT NOT NULL,"
                            + " old_version INT, new_version INT, at TIMESTAMPTZ DEFAULT"
                            + " clock_timestamp())");
            statement.execute(
                    "CREATE FUNCTION public.chaos_transfer_repeat() RETURNS trigger AS $$ BEGIN"
                            + " INSERT INTO public.chaos_repeats (tbl, id) VALUES ('transfers',"
                            + " OLD.id); RETURN NEW; END $$ LANGUAGE plpgsql");
            statement.execute(
                    "CREATE TRIGGER chaos_repeat BEFORE UPDATE ON chaos.transfers FOR EACH ROW"
                            + " EXECUTE FUNCTION public.chaos_transfer_repeat()");
            statement.execute(
                    "CREATE FUNCTION public.chaos_account_repeat() RETURNS trigger AS $$ BEGIN IF"
                            + " NEW.version <= OLD.version THEN INSERT INTO public.chaos_repeats"
                            + " (tbl, id, old_version, new_version) VALUES ('accounts', OLD.id,"
                            + " OLD.version, NEW.version); END IF; RETURN NEW; END $$ LANGUAGE"
                            + " plpgsql");
            statement.execute(
                    "CREATE TRIGGER chaos_repeat BEFORE UPDATE ON chaos.accounts FOR EACH ROW"
                            + " EXECUTE FUNCTION public.chaos_account_repeat()");
        }
    }

    static Repeats read(Connection target) throws SQLException {
        List<String> examples = new ArrayList<>();
        long count = 0;
        try (Statement statement = target.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT tbl, id, old_version, new_version FROM"
                                        + " public.chaos_repeats ORDER BY at")) {
            while (rows.next()) {
                if (count++ < EXAMPLES) {
                    examples.add(
                            rows.getString(1)
                                    + " "
                                    + rows.getLong(2)
                                    + (rows.getObject(3) == null
                                            ? ""
                                            : " version "
                                                    + rows.getInt(3)
                                                    + "->"
                                                    + rows.getInt(4)));
                }
            }
        }
        return new Repeats(count, List.copyOf(examples));
    }
}
