package io.changegrid.bench.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects every problem with a run's options, so they are all reported at once, each naming its
 * option: {@code --records: must be at least 1: value=0}.
 */
public final class OptionProblems {

    private final List<String> problems = new ArrayList<>();

    /** Records a problem unless {@code ok}. */
    public void check(boolean ok, String option, String what, Object value) {
        if (!ok) {
            add(option, what, value);
        }
    }

    public void add(String option, String what, Object value) {
        problems.add(option + ": " + what + ": value=" + value);
    }

    /** Records a problem whose message already names the value. */
    public void add(String option, String message) {
        problems.add(option + ": " + message);
    }

    /**
     * @throws BadOptionsException listing every problem, if there is one
     */
    public void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new BadOptionsException(problems);
        }
    }

    /** Options that do not make a run; the message lists every problem, one per line. */
    public static final class BadOptionsException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadOptionsException(List<String> problems) {
            super("bad options:\n  " + String.join("\n  ", problems));
        }
    }
}
