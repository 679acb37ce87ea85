package io.changegrid.fetchers.logminer.assembly;

/**
 * Where a LogMiner fetcher resumes: mining restarts at {@code restartScn} (the START of the oldest
 * transaction still open, or the last commit), and every commit at or below {@code published} on
 * the timeline is skipped, so none is published twice. Text form: {@code
 * restart=<scn>;published=<timeline scn>}.
 *
 * @param restartScn the Oracle SCN mining restarts at, inclusive
 * @param published the timeline SCN of the last transaction or heartbeat handed to the sink, or -1
 */
public record ResumePosition(long restartScn, long published) {

    private static final String RESTART = "restart=";
    private static final String PUBLISHED = ";published=";

    public ResumePosition {
        if (restartScn < 0 || published < -1) {
            throw new IllegalArgumentException(
                    "negative resume position: restart=" + restartScn + ", published=" + published);
        }
    }

    /**
     * Parses the text form.
     *
     * @throws IllegalArgumentException naming the text and the form expected
     */
    public static ResumePosition parse(String text) {
        int split = text.indexOf(PUBLISHED);
        if (!text.startsWith(RESTART) || split < 0) {
            throw new IllegalArgumentException(
                    "not a LogMiner resume position: value="
                            + text
                            + ", expected=restart=<scn>;published=<timeline scn>");
        }
        try {
            return new ResumePosition(
                    Long.parseLong(text.substring(RESTART.length(), split)),
                    Long.parseLong(text.substring(split + PUBLISHED.length())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a LogMiner resume position: value=" + text, e);
        }
    }

    @Override
    public String toString() {
        return RESTART + restartScn + PUBLISHED + published;
    }
}
