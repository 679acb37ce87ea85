package io.changegrid.fetchers.goldengate;

/**
 * Where a GoldenGate fetcher resumes: the trail position of the last operation it handed over, and
 * the file and byte offset of the next line to read. A file is named by the position of its first
 * record rather than by its name, because the File Writer renames a file when it finalizes it. Text
 * form: {@code <last pos>@<file's first pos>+<offset>}, e.g. {@code
 * 00000000030000004096@00000000030000000000+18823}.
 *
 * @param lastScn the SCN of the last operation handed over (0 before the first)
 * @param fileScn the SCN of the first record of the file to read next
 * @param offset the byte offset in that file of the next line
 */
record ResumePoint(long lastScn, long fileScn, long offset) {

    /**
     * Parses the text form.
     *
     * @throws IllegalArgumentException naming the text
     */
    static ResumePoint parse(String text) {
        int at = text.indexOf('@');
        int plus = text.indexOf('+', at + 1);
        if (at != TrailPosition.DIGITS || plus != 2 * TrailPosition.DIGITS + 1) {
            throw new IllegalArgumentException(
                    "not a GoldenGate resume position (<pos>@<pos>+<offset>): text=" + text);
        }
        try {
            long offset = Long.parseLong(text.substring(plus + 1));
            if (offset < 0) {
                throw new IllegalArgumentException("negative offset: text=" + text);
            }
            return new ResumePoint(
                    TrailPosition.scn(text.substring(0, at)),
                    TrailPosition.scn(text.substring(at + 1, plus)),
                    offset);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "not a GoldenGate resume position (<pos>@<pos>+<offset>): text=" + text, e);
        }
    }

    @Override
    public String toString() {
        return TrailPosition.text(lastScn) + "@" + TrailPosition.text(fileScn) + "+" + offset;
    }
}
