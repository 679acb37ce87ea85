package io.changegrid.fetchers.goldengate;

import java.io.IOException;
import java.util.List;

/**
 * Walks the File Writer's files in trail order from a resume point: the current file's complete
 * lines, then, once its name says it is finalized and every byte of it is read, the next file. A
 * finalized file that ends with an incomplete line, a file that disappears while it is read and a
 * resume file that is gone are errors naming the file and offset.
 *
 * <p>Threading: the fetcher's thread only.
 */
final class TrailReader implements AutoCloseable {

    /** Receives what the reader finds, on the fetcher's thread. */
    interface Handler {
        /** One complete line of {@code tail}: {@link FileTail#buffer()} from its line start. */
        void line(FileTail tail) throws InterruptedException;

        /**
         * The file is finalized and read to its end.
         *
         * @param nextExists whether the file after it is already there
         */
        void rolled(TrailFile file, long endOffset, boolean nextExists) throws InterruptedException;
    }

    private final TrailDirectory directory;
    private final ResumePoint resume;
    private final byte[] terminator;
    private FileTail tail;
    private boolean rollReported;

    /**
     * @param resume where to start, or null for the first line of the earliest file
     */
    TrailReader(TrailDirectory directory, ResumePoint resume) {
        this.directory = directory;
        this.resume = resume;
        this.terminator = directory.format() == TrailFormat.XML ? XmlTransactionParser.END : null;
    }

    /**
     * Hands over up to {@code maxLines} complete lines, or moves on to the next file.
     *
     * @return the work done: 0 when there was nothing new
     */
    int poll(Handler handler, int maxLines) throws IOException, InterruptedException {
        if (tail == null && !openFirst()) {
            return 0;
        }
        int lines = 0;
        while (lines < maxLines) {
            if (tail.nextLine()) {
                handler.line(tail);
                lines++;
            } else if (tail.fill() == 0) {
                break;
            }
        }
        return lines > 0 ? lines : atEndOfFile(handler);
    }

    private int atEndOfFile(Handler handler) throws IOException, InterruptedException {
        List<TrailFile> files = directory.list();
        TrailFile current = null;
        TrailFile next = null;
        for (TrailFile file : files) {
            if (file.firstScn() == tail.file().firstScn()) {
                current = file;
            } else if (file.firstScn() > tail.file().firstScn() && next == null) {
                next = file;
            }
        }
        if (current == null) {
            throw new FetchFailedException(
                    "file disappeared while being read: file="
                            + tail.path()
                            + ", offset="
                            + tail.nextOffset()
                            + "; the File Writer's finalize action must rename within "
                            + directory.path()
                            + ", and files may be purged only once read");
        }
        if (!current.finalized()) {
            return 0;
        }
        if (tail.fill() > 0) {
            return 1; // written before the rename, read after it
        }
        if (tail.hasPartialLine()) {
            throw new FetchFailedException(
                    "finalized file ends with an incomplete line: file="
                            + current.path()
                            + ", offset="
                            + tail.nextOffset());
        }
        if (!rollReported) {
            handler.rolled(current, tail.nextOffset(), next != null);
            rollReported = true;
        }
        if (next == null) {
            return 0;
        }
        FileTail opened = FileTail.open(next, 0, terminator);
        if (opened == null) {
            return 0; // renamed since listed: the next listing has its new name
        }
        tail.close();
        tail = opened;
        rollReported = false;
        return 1;
    }

    private boolean openFirst() throws IOException {
        List<TrailFile> files = directory.list();
        if (resume == null) {
            if (files.isEmpty()) {
                return false;
            }
            tail = FileTail.open(files.get(0), 0, terminator);
            return tail != null;
        }
        for (TrailFile file : files) {
            if (file.firstScn() == resume.fileScn()) {
                tail = FileTail.open(file, resume.offset(), terminator);
                return tail != null;
            }
        }
        throw new FetchFailedException(
                "the file holding the resume position is gone: resume="
                        + resume
                        + ", file begins at pos="
                        + TrailPosition.text(resume.fileScn())
                        + ", directory="
                        + directory.path()
                        + ", files="
                        + files.stream().map(f -> f.path().getFileName().toString()).toList()
                        + "; restore the file, or start the relay afresh and bootstrap its consumers");
    }

    @Override
    public void close() throws IOException {
        if (tail != null) {
            tail.close();
        }
    }
}
